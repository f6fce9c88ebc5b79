import DFUCore
import Foundation
import Testing

/// `dfu sim --serve udp:…` as a user runs it: the built binary in the background, its ready line,
/// SMP over the port it names, a clean stop on a signal, and usage errors for bad options. Serving
/// over BlueZ: its errors here (the peripheral itself is tested in DeviceSimTests against a
/// stand-in bluetoothd, and on the real one in `make test-bluez`).
@Suite struct SimCommandTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func servesOnTheReportedPortUntilASignalThenExitsZero(signal: Int32) throws {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        #expect(ready.port != 0)
        #expect(ready.line.range(of: #"^dfu sim: serving SMP over UDP on 127\.0\.0\.1:\d+ \(device [0-9A-F:]{17}, version 1\.0\.0\+0\)$"#,
                                 options: .regularExpression) != nil, "\(ready.line)")
        #expect(try SimUDPProbe.call(OSEchoRequest(text: "ping"), port: ready.port).get().text == "ping")

        let ended = sim.stop(with: signal)
        #expect(ended.exited, "dfu sim died from the signal instead of exiting")
        #expect(ended.exitCode == 0)
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(ended.stdoutLines.last?.hasPrefix("dfu sim: stopped by \(name)") == true, "\(ended.stdoutLines)")
        #expect(!ended.stderr.contains("interrupted"))
    }

    @Test func flagsBuildTheDeviceLikeSimKeys() throws {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0", "--version", "2.3.4", "--buf-size", "1024",
                                        "--buf-count", "6", "--id", "C0:FF:EE:00:00:01", "--verbose"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        #expect(ready.line.hasSuffix("(device C0:FF:EE:00:00:01, version 2.3.4+0)"))
        let parameters = try SimUDPProbe.call(MCUmgrParametersRequest(), port: ready.port).get()
        #expect(parameters.bufferSize == 1024 && parameters.bufferCount == 6)
        let state = try SimUDPProbe.call(ImageStateReadRequest(), port: ready.port).get()
        #expect(state.slot(0)?.version == "2.3.4")
        let ended = sim.stop()
        #expect(ended.exitCode == 0)
        // --verbose logs each datagram on stderr.
        #expect(ended.stderr.contains("← 127.0.0.1:"))
        #expect(ended.stderr.contains("→ 127.0.0.1:"))
    }

    /// `--fault` can be repeated: both faults reach the device (its options, logged with --verbose)
    /// and both fire during an upload from `dfu flash`, which still completes.
    @Test func repeatedFaultFlagsReachTheDeviceAsTwoFaults() throws {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0", "--fault", "disconnect@40%",
                                        "--fault", "reboot@60%", "--verbose"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        let flash = try DFURun.run(["flash", "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin",
                                    "--device", "udp:127.0.0.1:\(ready.port)", "--mode", "upload-only",
                                    "--chunk-timeout", "2"], timeout: 60)
        let ended = sim.stop()
        #expect(flash.exitCode == 0, "\(flash.output)")
        #expect(ended.exitCode == 0)
        #expect(ended.stderr.contains(",fault=disconnect@40%+reboot@60%\n"), "\(ended.stderr)")
        #expect(ended.stdoutLines.contains("dfu sim: fault injected: disconnect@40%"), "\(ended.stdoutLines)")
        #expect(ended.stdoutLines.contains("dfu sim: fault injected: reboot@60%"), "\(ended.stdoutLines)")
        #expect(ended.stdoutLines.contains { $0.hasPrefix("dfu sim: upload complete: 49816 bytes") })
    }

    @Test func aSecondServerOnABusyAddressIsAUsageError() throws {
        let first = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let ready = try #require(first.ready())
        let run = try DFURun.run(["sim", "--serve", "udp:127.0.0.1:\(ready.port)"], timeout: 20)
        #expect(run.exitCode == 2)
        #expect(run.stderr.contains("dfu: error: cannot serve on 127.0.0.1:\(ready.port)"))
        #expect(run.stderr.contains("EADDRINUSE"))
        #expect(run.stdout.isEmpty)
        #expect(first.stop().exitCode == 0)
    }

    @Test(arguments: [
        (["sim"], "missing option --serve <udp:HOST:PORT|serial:PATH|bluez:hciN>"),
        (["sim", "--serve", "tcp:127.0.0.1:1337"], "--serve 'tcp' is not a way to serve"),
        (["sim", "--serve", "bluez:"], "invalid --serve 'bluez:': give an adapter name like bluez:hci0"),
        (["sim", "--serve", "bluez:usb0"], "invalid --serve 'bluez:usb0'"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--name", "x"], "--name is for --serve bluez:hciN"),
        (["sim", "--serve", "bluez:hci0", "--name", String(repeating: "n", count: 30)],
         "invalid --name: '\(String(repeating: "n", count: 30))' is 30 bytes; a BLE scan response holds at most 29"),
        (["sim", "--serve", "bluez:hci0", "--battery", "150"],
         "invalid value '150' for --battery: expected a percentage from 0 to 100"),
        (["sim", "--serve", "udp:127.0.0.1"], "invalid --serve 'udp:127.0.0.1'"),
        (["sim", "--serve", "udp:127.0.0.1:70000"], "invalid --serve"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--battery", "150"],
         "invalid value '150' for --battery: expected a percentage from 0 to 100"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--buf-size", "10"], "invalid value '10' for --buf-size"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--fault", "explode@40%"], "invalid value 'explode@40%' for --fault"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--phy", "3M"], "invalid value '3M' for --phy: expected 1M or 2M"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--key", "firmware-samples/no-such-key.pem"],
         "--key 'firmware-samples/no-such-key.pem' cannot be used"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--json"], "unknown option '--json'"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--protocol", "nordic"],
         "the Nordic device (--protocol nordic) is served over BLE (--serve bluez:hciN) or a serial line (--serve serial:PATH)"),
        (["sim", "--serve", "bluez:hci0", "--protocol", "nordic", "--security", "authen", "--passkey", "123456"],
         "--security and --passkey are for the SMP device"),
        (["sim", "--serve", "bluez:hci0", "--protocol", "nordic", "--sdk", "14"], "invalid value '14' for --sdk: expected 15, 16 or 17"),
        (["sim", "--serve", "bluez:hci0", "--protocol", "nordic", "--buttonless", "maybe"],
         "invalid value 'maybe' for --buttonless: expected plain, bonds or bonds-unpaired"),
        (["sim", "--serve", "bluez:hci0", "--protocol", "nordic", "--chip", "nrf52810"],
         "invalid value 'nrf52810' for --chip: expected nrf52832, nrf52833 or nrf52840"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--readvertise", "3"], "--readvertise is for --serve bluez:hciN"),
        (["sim", "--serve", "bluez:hci0", "--readvertise", "0.1"], "invalid --readvertise 0.1: give seconds from 0.5 to 3600"),
        (["sim", "--serve", "udp:127.0.0.1:0", "--chip", "nrf52840"],
         "the device options do not fit together: chip= applies to protocol=nordic only"),
    ])
    func badOptionsAreUsageErrorsAndServeNothing(arguments: [String], message: String) throws {
        let run = try DFURun.run(arguments, timeout: 20)
        #expect(run.exitCode == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("dfu: error: "))
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.contains("see 'dfu sim --help'"))
        #expect(run.stdout.isEmpty)
    }

    /// BlueZ being unusable is exit 5 with a one-line reason, and nothing is served: no bus at all,
    /// or a bus where nobody owns org.bluez (bluetoothd not running).
    @Test func bluezServingWithoutABusIsExitFive() throws {
        let run = try DFURun.run(["sim", "--serve", "bluez:hci0"], timeout: 20,
                                 environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/dfu-sim-test-bus"])
        #expect(run.exitCode == 5, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("dfu: error: cannot reach the system D-Bus"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test(.enabled(if: ScanTestBus.daemonPath != nil, "dbus-daemon is not installed"))
    func bluezServingWithoutBluetoothdIsExitFive() throws {
        let run = try ScanTestBus.withBus { environment in
            try DFURun.run(["sim", "--serve", "bluez:hci0"], timeout: 20, environment: environment)
        }
        #expect(run.exitCode == 5, "\(run.stderr)")
        #expect(run.stderr == "dfu: error: bluetoothd is not running: start it (sudo systemctl start bluetooth)\n")
        #expect(run.stdout.isEmpty)
    }

    /// The Nordic device over BlueZ reaches the same BlueZ checks (exit 5 without a bus).
    @Test func nordicBluezServingWithoutABusIsExitFive() throws {
        let run = try DFURun.run(["sim", "--serve", "bluez:hci0", "--protocol", "nordic"], timeout: 20,
                                 environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/dfu-sim-test-bus"])
        #expect(run.exitCode == 5, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("dfu: error: cannot reach the system D-Bus"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func rootHelpListsSim() throws {
        let run = try DFURun.run(["--help"])
        #expect(run.stdout.contains("\n  sim "))
    }
}
