import BlueZStandIn
import DFUCore
import DeviceSim
import Foundation
import Testing
import Transport

/// The Bluetooth half of `LogHygieneCLITests`: a device that requires pairing, behind the BlueZ
/// stand-in, flashed, paired, read and scanned with `--passkey` (right and wrong), each with
/// `--verbose` and with `--json --verbose`. No output or journal holds the passkey, the key or
/// image bytes, or the address the user typed outside the records' `device` fields; `dfu scan`,
/// which prints addresses in full by design (it is how one learns them), is held to the rest.
@Suite(.serialized, .enabled(if: PrivateDBusDaemon.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
struct BlueZLogHygieneTests {
    static let address = "C2:11:40:55:7A:01"
    static let adapterAddress = BlueZStandInAdapter().address
    static let passkey = "604217"
    static let wrongPasskey = "417062"

    @Test func pairingRunsShowNoPasskeyNoKeyNoImageAndNoFullAddress() async throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try await BlueZSecureBench.run(address: Self.address, passkey: 604_217) { bench, _ in
            let flash = ["flash", LogHygieneCLITests.image, "--device", Self.address, "--key", LogHygieneCLITests.key,
                         "--allow-downgrade"]
            let steps: [(arguments: [String], exitCode: Int32)] = [
                (flash + ["--passkey", Self.wrongPasskey], 9),
                (flash + ["--passkey", Self.passkey], 0),
                (["unpair", "--device", Self.address], 0),
                (flash + ["--passkey", Self.passkey], 0),
                (["unpair", "--device", Self.address], 0),
                (["pair", "--device", Self.address, "--passkey", Self.passkey], 0),
                (["info", "--device", Self.address], 0),
                (["image", "list", "--device", Self.address], 0),
                (["echo", "hello", "--device", Self.address], 0),
            ]
            var written: [LogHygieneCLITests.Written] = []
            for step in steps {
                for mode in LogHygieneCLITests.modes {
                    // The bond the first mode's pair left would make the second's a no-op.
                    if step.arguments.first == "pair" {
                        _ = try await BlueZDFUProcess.run(["unpair", "--device", Self.address], bus: bench.busAddress)
                    }
                    let run = try await BlueZDFUProcess.run(step.arguments + mode, bus: bench.busAddress,
                                                            environment: ["XDG_STATE_HOME": state])
                    #expect(run.exitCode == step.exitCode, "\(run.output)")
                    written += LogHygieneCLITests.written(run, json: mode.contains("--json"))
                }
            }
            let files = LogHygieneCLITests.files(under: state)
            #expect(!files.isEmpty, "flash keeps a journal")
            written += files
            try LogHygieneCLITests.expectNoLeaks(written, addresses: [Self.address, Self.adapterAddress],
                                                 passkeys: [Self.passkey, Self.wrongPasskey])

            var scans: [LogHygieneCLITests.Written] = []
            for mode in LogHygieneCLITests.modes {
                let scan = try await BlueZDFUProcess.run(["scan", "--timeout", "2"] + mode, bus: bench.busAddress)
                #expect(scan.exitCode == 0 && scan.stdout.contains(Self.address), "\(scan.output)")
                scans += LogHygieneCLITests.written(scan, json: mode.contains("--json"))
            }
            try LogHygieneCLITests.expectNoLeaks(scans, addresses: [], passkeys: [Self.passkey, Self.wrongPasskey])
        }
    }
}
