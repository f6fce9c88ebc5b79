import Foundation
import Testing

/// `dfu scan` as a user runs it, on a machine where BlueZ cannot be used: a private system bus
/// where nobody owns org.bluez (bluetoothd not running). Scans that find devices run against the
/// BlueZ stand-in and on the real-BlueZ rig (scripts/bluez-rig-scenarios.sh).
@Suite(.serialized, .endToEnd) struct ScanCLITests {
    @Test(.enabled(if: ScanTestBus.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
    func withoutBluetoothdScanExitsFiveWithTheFix() throws {
        try ScanTestBus.withBus { environment in
            let run = try DFURun.run(["scan", "--timeout", "1"], timeout: 30, environment: environment)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr == "dfu: error: bluetoothd is not running (org.bluez is not on the system bus); "
                + "start it with 'sudo systemctl start bluetooth'.\n")
            #expect(run.stdout.isEmpty)
        }
    }

    @Test(.enabled(if: ScanTestBus.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
    func withoutBluetoothdJSONScanEndsWithAResultLine() throws {
        try ScanTestBus.withBus { environment in
            let run = try DFURun.run(["scan", "--timeout", "1", "--all", "--adapter", "hci1", "--json"], timeout: 30,
                                     environment: environment)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            #expect(run.stdoutLines.count == 1)
            let result = try FlashCLITests.object(try #require(run.stdoutLines.first))
            #expect(result["event"] as? String == "result")
            #expect(result["command"] as? String == "scan")
            #expect(result["ok"] as? Bool == false && result["exit_code"] as? Int == 5)
            #expect(result["adapter"] is NSNull)
            #expect(result["devices"] as? Int == 0)
            #expect((result["error"] as? String)?.contains("sudo systemctl start bluetooth") == true)
        }
    }

    /// No system bus at all: the fix names dbus, not bluetoothd.
    @Test func withoutASystemBusTheFixStartsDBus() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-no-bus-\(UUID().uuidString)")
        let run = try DFURun.run(["scan", "--timeout", "1"], timeout: 30,
                                 environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(missing.path)"])
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(run.stderr.contains("the D-Bus system bus is not reachable"), "\(run.stderr)")
        #expect(run.stderr.contains("systemctl start dbus"))
    }

    @Test(arguments: [
        (["--timeout", "0"], "--timeout must be more than 0 and at most 3600 seconds"),
        (["--timeout", "soon"], "invalid value 'soon' for --timeout: expected a number"),
        (["--rssi-min", "-200"], "--rssi-min must be from -127 to 20 dBm"),
        (["--rssi-min", "70"], "--rssi-min must be from -127 to 20 dBm (signal strengths are negative: -70 keeps"),
        (["--rssi-min", "strong"], "invalid value 'strong' for --rssi-min: expected an integer"),
        (["--adapter", "bluetooth0"], "invalid --adapter 'bluetooth0': expected a BlueZ adapter name such as hci0"),
        // Scan prints addresses in full already, and looks for devices rather than taking one.
        (["--full-addresses"], "unknown option '--full-addresses'"),
        (["--device", "sim"], "unknown option '--device'"),
        (["nearby"], "unexpected argument 'nearby'"),
    ] as [([String], String)])
    func badCommandLineExitsTwo(arguments: [String], message: String) throws {
        let run = try DFURun.run(["scan"] + arguments)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("dfu: error: \(message)"), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("see 'dfu scan --help'\n"))
        #expect(run.stdout.isEmpty)
    }
}
