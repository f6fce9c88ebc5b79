import BlueZStandIn
import DFUCore
import DeviceSim
import Foundation
import Testing
import Transport

/// `dfu` with no `--passkey`, run at a terminal (a pseudo-terminal it has as its controlling
/// terminal), against devices whose IO capability makes bluetoothd ask our KeyboardDisplay agent
/// for the passkey the device shows (a DisplayOnly device) or to confirm the number both show
/// (DisplayYesNo: numeric comparison). What the person sees and types, the exit codes, and that
/// the passkey is never echoed nor printed.
@Suite(.serialized, .enabled(if: PrivateDBusDaemon.daemonPath != nil && TerminalDFUProcess.scriptPath != nil,
                             "needs dbus-daemon and util-linux script"))
struct BlueZTerminalPairingTests {
    static let address = BlueZEndToEndTests.address
    static let passkey = "123456"

    private func withSecureDevice<T: Sendable>(io: BlueZStandInDeviceIO,
                                               _ body: (BlueZStandInBench, VirtualPeripheral) async throws -> T) async throws -> T {
        try await BlueZSecureBench.run(address: Self.address, passkey: 123_456, io: io, body)
    }

    private func start(_ arguments: [String], _ bench: BlueZStandInBench) throws -> TerminalDFUProcess {
        let dfu = try TerminalDFUProcess(arguments, bus: bench.busAddress)
        try dfu.start()
        return dfu
    }

    private static let passkeyPrompt = "Enter the 6-digit passkey it shows"

    @Test func typingThePasskeyTheDeviceShowsPairsAndFlashes() async throws {
        try await withSecureDevice(io: .displayOnly) { bench, peripheral in
            let dfu = try start(["flash", BlueZEndToEndTests.image, "--device", Self.address,
                                 "--key", BlueZEndToEndTests.key], bench)
            #expect(await dfu.waitFor(Self.passkeyPrompt), "no prompt; the terminal showed: \(dfu.screen)")
            dfu.type(Self.passkey)
            let (run, screen) = try await dfu.finish()
            #expect(run.exitCode == 0, "\(run.output)\n--- terminal:\n\(screen)")
            #expect(screen.contains("…:7A:01 requires pairing"), "\(screen)")
            #expect(!screen.contains(Self.passkey), "the passkey was echoed: \(screen)")
            #expect(!run.output.contains(Self.passkey))
            #expect(await peripheral.snapshot.firmwareRevision.hasPrefix("1.1.0"))
            let statistics = try await bench.requireStandIn().statistics(address: Self.address)
            #expect(statistics.agentCalls == ["RequestPasskey"], "\(statistics.agentCalls)")
            #expect(try await bench.requireStandIn().bond(address: Self.address) == .authenticated)
        }
    }

    @Test func aWrongPasskeyAtThePromptExitsNine() async throws {
        try await withSecureDevice(io: .displayOnly) { bench, _ in
            let dfu = try start(["info", "--device", Self.address, "--json"], bench)
            #expect(await dfu.waitFor(Self.passkeyPrompt), "\(dfu.screen)")
            dfu.type("654321")
            let (run, screen) = try await dfu.finish()
            #expect(run.exitCode == 9, "\(run.output)\n--- terminal:\n\(screen)")
            #expect(run.stdout.contains("\"exit_code\":9"), "\(run.stdout)")
            #expect(run.output.contains("the passkey was wrong"), "\(run.output)")
            #expect(!(run.output + screen).contains("654321"))
            #expect(try await bench.requireStandIn().bond(address: Self.address) == nil)
        }
    }

    @Test func confirmingTheNumberPairs() async throws {
        try await withSecureDevice(io: .displayYesNo) { bench, _ in
            let dfu = try start(["info", "--device", Self.address], bench)
            #expect(await dfu.waitFor("Does it show 123456? [y/N]"), "\(dfu.screen)")
            dfu.type("y")
            let (run, screen) = try await dfu.finish()
            #expect(run.exitCode == 0, "\(run.output)\n--- terminal:\n\(screen)")
            #expect(!run.output.contains(Self.passkey), "the number belongs on the terminal only")
            let statistics = try await bench.requireStandIn().statistics(address: Self.address)
            #expect(statistics.agentCalls == ["RequestConfirmation"], "\(statistics.agentCalls)")
            #expect(try await bench.requireStandIn().bond(address: Self.address) == .authenticated)
        }
    }

    @Test func answeringNoToTheNumberExitsNineAndSaysSo() async throws {
        try await withSecureDevice(io: .displayYesNo) { bench, _ in
            let dfu = try start(["info", "--device", Self.address], bench)
            #expect(await dfu.waitFor("[y/N]"), "\(dfu.screen)")
            dfu.type("n")
            let (run, screen) = try await dfu.finish()
            #expect(run.exitCode == 9, "\(run.output)\n--- terminal:\n\(screen)")
            #expect(run.stderr.contains("the number was not confirmed"), "\(run.stderr)")
            #expect(!run.output.contains(Self.passkey))
            #expect(try await bench.requireStandIn().bond(address: Self.address) == nil)
        }
    }
}
