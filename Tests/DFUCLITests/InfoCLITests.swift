import Foundation
import Testing

/// `dfu info` as a user runs it: against the built-in virtual device (unpaced, `timescale=0`),
/// against `dfu sim --serve udp:` before and after an upload, and where the device or BlueZ cannot
/// be reached.
@Suite(.serialized, .endToEnd) struct InfoCLITests {
    static let device = "sim:version=1.2.3,battery=55,timescale=0"

    @Test func showsWhatTheVirtualDeviceWasGiven() throws {
        let run = try DFURun.run(["info", "--device", Self.device], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let lines = run.stdoutLines
        #expect(lines.first?.hasPrefix("device             …:") == true, "\(lines)")
        #expect(lines.contains("link               MTU 498, writes up to 495 bytes, 2M PHY, interval 7.5 ms"))
        #expect(lines.contains("MCUmgr buffers     4 × 2475 bytes (3 requests in flight)"))
        #expect(lines.contains("bootloader mode    swap without scratch"))
        #expect(lines.contains("slot size          385.0 kB (385024 bytes)"))
        #expect(lines.contains("battery            55 %"))
        #expect(lines.contains("firmware revision  1.2.3"))
        #expect(lines.contains("slot 0             1.2.3+0: running, confirmed"))
        #expect(lines.contains { $0.wholeMatch(of: /slot 0 hash        [0-9a-f]{64}/) != nil })
        #expect(lines.last == "slot 1             empty")
    }

    @Test func jsonIsOneObjectWithEverySlot() throws {
        let run = try DFURun.run(["info", "--device", Self.device, "--json", "--full-addresses"], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdoutLines.count == 1)
        let info = try FlashCLITests.object(try #require(run.stdoutLines.first))
        #expect(info["event"] as? String == "result" && info["command"] as? String == "info")
        #expect(info["ok"] as? Bool == true && info["exit_code"] as? Int == 0)
        // The virtual device's identity looks like an address: in full with --full-addresses.
        #expect((info["device"] as? String)?.contains("…") == false)
        #expect(info["mtu"] as? Int == 498 && info["max_write"] as? Int == 495)
        #expect(info["phy"] as? String == "2M" && info["interval_ms"] as? Double == 7.5)
        #expect(info["buf_size"] as? Int == 2475 && info["buf_count"] as? Int == 4 && info["window"] as? Int == 3)
        #expect(info["battery"] as? Int == 55)
        #expect(info["firmware_revision"] as? String == "1.2.3")
        #expect(info["running_version"] as? String == "1.2.3+0")
        #expect(info["slot_size"] as? Int == 385_024)
        #expect(info["bootloader_mode"] as? String == "swap without scratch")
        let slots = try #require(info["slots"] as? [[String: Any]])
        #expect(slots.count == 1)
        #expect(slots.first?["slot"] as? Int == 0 && slots.first?["version"] as? String == "1.2.3+0")
        #expect(slots.first?["active"] as? Bool == true && slots.first?["confirmed"] as? Bool == true)
        #expect(slots.first?["pending"] as? Bool == false)
        #expect(slots.first?["sha256"] as? String == info["running_sha256"] as? String)
        #expect(info["warnings"] as? [Any] != nil && info["error"] is NSNull)
    }

    /// Over UDP, from `dfu sim --serve`, whose device keeps its slots between clients: the upload
    /// of `flash --mode upload-only` shows up in slot 1. SMP over UDP has no Battery Service and
    /// no PHY.
    @Test func readsAnSMPServerOverUDPBeforeAndAfterAnUpload() throws {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0", "--version", "1.0.0"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        let device = "udp:127.0.0.1:\(ready.port)"

        let before = try DFURun.run(["info", "--device", device], timeout: 30)
        #expect(before.exitCode == 0, "\(before.output)")
        #expect(before.stdoutLines.first == "device             \(device)")
        #expect(before.stdout.contains("slot 0             1.0.0+0: running, confirmed"))
        #expect(before.stdout.contains("battery            not reported (no Battery Service)"))
        #expect(before.stdout.contains("slot 1             empty"))

        let upload = try DFURun.run(["flash", FlashCLITests.image, "--device", device, "--key", FlashCLITests.key,
                                     "--mode", "upload-only"], timeout: 60)
        #expect(upload.exitCode == 0, "\(upload.output)")

        let after = try DFURun.run(["info", "--device", device, "--json"], timeout: 30)
        #expect(after.exitCode == 0, "\(after.output)")
        let info = try FlashCLITests.object(try #require(after.stdoutLines.first))
        #expect(info["battery"] is NSNull && info["phy"] is NSNull)
        let slots = try #require(info["slots"] as? [[String: Any]])
        let second = try #require(slots.first { $0["slot"] as? Int == 1 })
        #expect(second["version"] as? String == "1.1.0+0")
        #expect(second["active"] as? Bool == false && second["pending"] as? Bool == false)
        #expect(sim.stop().exitCode == 0)
    }

    @Test func udpPortWithNothingListeningExitsFive() throws {
        let port = try FlashCLITests.closedUDPPort()
        let run = try DFURun.run(["info", "--device", "udp:127.0.0.1:\(port)", "--connect-timeout", "2", "--json"],
                                 timeout: 30)
        #expect(run.exitCode == 5, "\(run.output)")
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last))
        #expect(result["ok"] as? Bool == false && result["exit_code"] as? Int == 5)
        #expect(result["device"] as? String == "udp:127.0.0.1:\(port)")
        #expect(result["slots"] == nil, "no device fields when nothing was read")
    }

    @Test(.enabled(if: ScanTestBus.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
    func bluetoothDeviceWithoutBluetoothdExitsFiveWithTheFix() throws {
        try ScanTestBus.withBus { environment in
            let run = try DFURun.run(["info", "--device", "C2:11:40:55:7A:01"], timeout: 30, environment: environment)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr.contains("dfu: error: bluetoothd is not running"), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            let json = try DFURun.run(["info", "--device", "C2:11:40:55:7A:01", "--json"], timeout: 30,
                                      environment: environment)
            #expect(json.exitCode == 5)
            let result = try FlashCLITests.object(try #require(json.stdoutLines.last))
            // A JSON record names the device in full (issue 19, item 5); the terminal shortens it.
            #expect(result["device"] as? String == "C2:11:40:55:7A:01")
            #expect(!run.stderr.contains("C2:11:40"), "\(run.stderr)")
            #expect((result["error"] as? String)?.contains("sudo systemctl start bluetooth") == true)
        }
    }

    @Test(arguments: [
        ([], "missing option --device <DEVICE>"),
        (["--device", "bogus"], "invalid --device 'bogus'"),
        (["--device", "sim", "--adapter", "hci0"], "--adapter selects a Bluetooth adapter"),
        (["--device", "sim", "--connect-timeout", "0"], "--connect-timeout must be more than 0 and at most 3600 seconds"),
        (["--device", "sim:battery=200"], "battery='200' is not valid"),
    ] as [([String], String)])
    func badCommandLineExitsTwo(arguments: [String], message: String) throws {
        let run = try DFURun.run(["info"] + arguments, timeout: 30)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
