import BlueZStandIn
import DFUCore
import DeviceSim
import Foundation
import Testing
import Transport

/// `dfu flash`, `info`, `pair` and `unpair` against a device that requires an authenticated link
/// (Zephyr's default with Bluetooth pairing), through the stand-in's model of BlueZ 5.66 pairing:
/// what a user sees, the exit codes, and that no passkey ever shows in output.
@Suite(.serialized, .enabled(if: PrivateDBusDaemon.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
struct BlueZPairingEndToEndTests {
    static let address = BlueZEndToEndTests.address
    static let image = BlueZEndToEndTests.image
    static let key = BlueZEndToEndTests.key
    static let passkey = "123456"

    /// A bench with the virtual device behind the stand-in, its SMP characteristic requiring an
    /// authenticated link, its passkey 123456.
    private func withSecureDevice<T: Sendable>(_ body: (BlueZStandInBench, VirtualPeripheral) async throws -> T) async throws -> T {
        try await BlueZSecureBench.run(address: Self.address, passkey: 123_456, body)
    }

    private func flash(_ extra: [String], _ bench: BlueZStandInBench) async throws -> DFURun {
        try await BlueZDFUProcess.run(["flash", Self.image, "--device", Self.address, "--key", Self.key] + extra,
                                      bus: bench.busAddress)
    }

    @Test func withoutAPasskeyFlashExitsNineWithTheFixAndSendsNothing() async throws {
        try await withSecureDevice { bench, peripheral in
            let run = try await flash([], bench)
            #expect(run.exitCode == 9, "\(run.output)")
            #expect(run.stderr.contains("the device requires an authenticated link"), "\(run.stderr)")
            #expect(run.stderr.contains("pass --passkey N, or pair it first with dfu pair"), "\(run.stderr)")
            #expect(!run.stdout.contains("uploading"), "\(run.stdout)")
            #expect(await peripheral.snapshot.firmwareRevision.hasPrefix("1.0.0"))
            #expect(try await bench.requireStandIn().statistics(address: Self.address).pairCalls == 0)
        }
    }

    @Test func withThePasskeyFlashPairsUpdatesAndReconnectsWithTheBond() async throws {
        try await withSecureDevice { bench, peripheral in
            let run = try await flash(["--passkey", Self.passkey, "--verbose"], bench)
            #expect(run.exitCode == 0, "\(run.output)")
            #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true, "\(run.output)")
            #expect(!run.output.contains(Self.passkey), "the passkey must never be printed")
            #expect(await peripheral.snapshot.firmwareRevision.hasPrefix("1.1.0"))
            let standIn = try bench.requireStandIn()
            let statistics = await standIn.statistics(address: Self.address)
            #expect(statistics.agentCalls == ["RequestPasskey"], "one pairing; the reconnect after the reboot uses the bond")
            #expect(statistics.insecureWritesDropped == 0)
            #expect(await standIn.bond(address: Self.address) == .authenticated)
        }
    }

    @Test func aWrongPasskeyExitsNineWithBlueZsReason() async throws {
        try await withSecureDevice { bench, _ in
            let run = try await flash(["--passkey", "654321", "--json"], bench)
            #expect(run.exitCode == 9, "\(run.output)")
            let result = try #require(run.stdoutLines.last)
            #expect(result.contains("\"exit_code\":9"), "\(result)")
            #expect(result.contains("AuthenticationFailed"), "\(result)")
            #expect(!run.output.contains("654321"))
            #expect(try await bench.requireStandIn().bond(address: Self.address) == nil)
        }
    }

    @Test func pairOnceThenInfoUsesTheBondWithoutAPasskeyThenUnpairForgetsIt() async throws {
        try await withSecureDevice { bench, _ in
            let pair = try await BlueZDFUProcess.run(["pair", "--device", Self.address, "--passkey", Self.passkey],
                                                     bus: bench.busAddress)
            #expect(pair.exitCode == 0, "\(pair.output)")
            #expect(pair.stdout.contains("paired with …:7A:01: bonded, encrypted, authenticated"), "\(pair.stdout)")
            #expect(!pair.output.contains(Self.passkey))

            let info = try await BlueZDFUProcess.run(["info", "--device", Self.address], bus: bench.busAddress)
            #expect(info.exitCode == 0, "\(info.output)")
            let line = try #require(info.stdoutLines.first { $0.hasPrefix("security") }, "\(info.stdout)")
            #expect(line.contains("bonded, encrypted"), "\(line)")
            #expect(line.contains("existing bond"), "\(line)")

            let again = try await BlueZDFUProcess.run(["pair", "--device", Self.address, "--json"], bus: bench.busAddress)
            #expect(again.exitCode == 0, "\(again.output)")
            #expect(again.stdout.contains("\"paired_now\":false"), "\(again.stdout)")

            let unpair = try await BlueZDFUProcess.run(["unpair", "--device", Self.address], bus: bench.busAddress)
            #expect(unpair.exitCode == 0, "\(unpair.output)")
            #expect(unpair.stdout.contains("forgot …:7A:01"), "\(unpair.stdout)")
            #expect(try await bench.requireStandIn().bond(address: Self.address) == nil)

            let unknown = try await BlueZDFUProcess.run(["unpair", "--device", Self.address], bus: bench.busAddress)
            #expect(unknown.exitCode == 0, "\(unknown.output)")
            #expect(unknown.stdout.contains("nothing to forget"), "\(unknown.stdout)")

            let refused = try await BlueZDFUProcess.run(["info", "--device", Self.address], bus: bench.busAddress)
            #expect(refused.exitCode == 9, "after unpair the device needs pairing again: \(refused.output)")
        }
    }

    @Test func pairWithoutAPasskeyOrTerminalExitsNine() async throws {
        try await withSecureDevice { bench, _ in
            let run = try await BlueZDFUProcess.run(["pair", "--device", Self.address], bus: bench.busAddress)
            #expect(run.exitCode == 9, "\(run.output)")
            #expect(run.stderr.contains("--passkey"), "\(run.stderr)")
        }
    }

    /// Bonded on our side; the device was reflashed and forgot the bond (BlueZ keeps Paired and
    /// Bonded true, the encryption with the old key fails and the link drops).
    private func loseTheBond(_ bench: BlueZStandInBench) async throws {
        let standIn = try bench.requireStandIn()
        await standIn.setBonded(address: Self.address)
        await standIn.setBondLost(address: Self.address)
    }

    @Test func aDeviceThatLostItsBondIsPairedAgainWithThePasskeyAndUpdated() async throws {
        try await withSecureDevice { bench, peripheral in
            try await loseTheBond(bench)
            let run = try await flash(["--passkey", Self.passkey, "--verbose"], bench)
            #expect(run.exitCode == 0, "\(run.output)")
            #expect(run.stderr.contains("warning: …:7A:01 no longer has dfu's bond"), "\(run.stderr)")
            // Both ways BlueZ 5.66 answers such a Connect (seen on the rig) are recognised.
            #expect(run.stderr.contains("le-connection-abort-by-local) although it is bonded"), "\(run.stderr)")
            #expect(run.stderr.contains("(the link dropped before its services were resolved) although it is bonded"),
                    "\(run.stderr)")
            #expect(!run.output.contains(Self.passkey))
            #expect(await peripheral.snapshot.firmwareRevision.hasPrefix("1.1.0"))
            let standIn = try bench.requireStandIn()
            let statistics = await standIn.statistics(address: Self.address)
            #expect(statistics.encryptionFailures == 2, "\(statistics.encryptionFailures)")
            #expect(statistics.agentCalls == ["RequestPasskey"], "paired again once: \(statistics.agentCalls)")
            #expect(await standIn.bond(address: Self.address) == .authenticated)
        }
    }

    @Test func aDeviceThatLostItsBondWithoutAPasskeyExitsNineWithTheFix() async throws {
        try await withSecureDevice { bench, _ in
            try await loseTheBond(bench)
            let run = try await BlueZDFUProcess.run(["info", "--device", Self.address], bus: bench.busAddress)
            #expect(run.exitCode == 9, "\(run.output)")
            #expect(run.stderr.contains("the device no longer has dfu's bond"), "\(run.stderr)")
            #expect(run.stderr.contains("dfu unpair --device"), "\(run.stderr)")
            #expect(run.stderr.contains("pair again with --passkey N"), "\(run.stderr)")
            let standIn = try bench.requireStandIn()
            #expect(await standIn.statistics(address: Self.address).pairCalls == 0)
            #expect(await standIn.bond(address: Self.address) != nil, "without a passkey dfu leaves the bond to the user")
        }
    }
}
