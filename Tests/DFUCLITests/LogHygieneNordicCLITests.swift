import DFUCore
import Foundation
import Testing

/// The Nordic half of "logs leak nothing by default" (issue 22, Logs): whole runs of every command
/// that reads a Nordic package or talks to the virtual nRF52, each with `--verbose` and with
/// `--json --verbose`, and the journals they left, hold no 16-byte run of the package's firmware,
/// no byte or PEM line of its signing key, and not the device's full address (`LogHygieneCLITests`
/// says how each is looked for).
@Suite(.serialized, .endToEnd) struct LogHygieneNordicCLITests {
    static let package = "firmware-samples/nordic/app-signed-3.zip"
    static let key = "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.pem"
    static let sim = "sim:protocol=nordic,timescale=0,inactivity=off"

    /// Every firmware image of the package, as the bytes it sends.
    static func firmware() throws -> [LeakScanner.Secret] {
        let package = try NordicPackage(zipBytes: try LogHygieneCLITests.bytes(Self.package))
        return package.images.map { LeakScanner.Secret(name: Self.package + ":" + $0.binFile, bytes: $0.firmware) }
    }

    @Test func nordicRunsShowNoFirmwareNoKeyAndNoFullAddress() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]
        let commands: [[String]] = [
            ["verify", Self.package, "--key", Self.key],
            ["info", "--device", Self.sim],
            ["flash", Self.package, "--device", Self.sim, "--key", Self.key],
        ]
        var written: [LogHygieneCLITests.Written] = []
        for command in commands {
            for mode in LogHygieneCLITests.modes {
                let run = try DFURun.run(command + mode, timeout: 60, environment: environment)
                #expect(run.exitCode == 0, "\(run.output)")
                written += LogHygieneCLITests.written(run, json: mode.contains("--json"))
            }
        }
        // The verbose flash logs the transfer object by object: the scan has something to read.
        #expect(written.contains { $0.text.contains("fw_version 3") }, "\(written.map(\.text))")
        written += LogHygieneCLITests.files(under: state)
        let identity = try LogHygieneCLITests.simIdentity(Self.sim)
        try LogHygieneCLITests.expectNoLeaks(written, addresses: [identity], more: try Self.firmware(), moreKeys: [Self.key])
    }
}
