import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `dfu flash` as a user runs it: the built binary against the in-process virtual device, unpaced
/// (`timescale=0`) so a whole update takes a fraction of a second, and against a UDP port where
/// nothing listens. One test at a time: each starts a process, and the machine's cores are shared
/// with timing-sensitive tests.
@Suite(.serialized, .endToEnd) struct FlashCLITests {
    static let image = "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin"
    static let key = "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"
    static let otherKey = "firmware-samples/keys/TEST-ONLY-other-ecdsa-p256.pub.pem"

    /// `dfu flash IMAGE --device sim:timescale=0[,sim] --key KEY extra…`.
    static func flash(_ extra: [String] = [], sim: String = "", image: String = image,
                      key: String? = key) throws -> DFURun {
        let device = "sim:timescale=0" + (sim.isEmpty ? "" : "," + sim)
        return try DFURun.run(["flash", image, "--device", device] + (key.map { ["--key", $0] } ?? []) + extra,
                              timeout: 30)
    }

    @Test func flashesTheVirtualDeviceAndReportsTheNewVersion() throws {
        let run = try Self.flash()
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("image checked: blinky-ecdsa-p256-1.1.0.signed.bin 1.1.0+0"))
        #expect(run.stdout.contains("battery 80 % ≥ 30 %"))
        #expect(run.stdout.contains("version 1.0.0+0 → 1.1.0+0"))
        #expect(run.stdout.contains("marked for test"))
        #expect(run.stdout.contains("device reports 1.1.0+0, active"))
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on …:") == true)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func jsonLinesParseAndEndWithTheResult() throws {
        let run = try Self.flash(["--json"])
        #expect(run.exitCode == 0)
        #expect(run.stderr.isEmpty)
        let objects = try run.stdoutLines.map(Self.object)
        #expect(objects.allSatisfy { $0["event"] is String })
        let result = try #require(objects.last)
        #expect(result["event"] as? String == "result")
        #expect(result["command"] as? String == "flash")
        #expect(result["ok"] as? Bool == true && result["exit_code"] as? Int == 0)
        #expect(result["version"] as? String == "1.1.0+0")
        let finished = objects.filter { $0["event"] as? String == "stage" && $0["status"] as? String == "finished" }
        #expect(finished.compactMap { $0["stage"] as? String } == ["verify-image", "connect", "read-device-state",
                "check-preconditions", "transfer", "activate", "reconnect", "confirm-version"])
        let progress = objects.filter { $0["event"] as? String == "progress" }
        #expect(progress.last?["bytes"] as? Int == progress.last?["total"] as? Int)
        #expect(objects.contains { $0["event"] as? String == "version" && $0["confirmed"] as? Bool == true })
    }

    @Test func lowBatteryExitsFourAndSaysWhy() throws {
        let run = try Self.flash(sim: "battery=15")
        #expect(run.exitCode == 4)
        #expect(run.stderr.contains("dfu: error: device battery is at 15 %, below the required 30 %"))
        #expect(!run.stdout.contains("uploading"))
    }

    @Test func lowBatteryInJSONListsTheFailedCheck() throws {
        let run = try Self.flash(["--json"], sim: "battery=15")
        #expect(run.exitCode == 4)
        let result = try Self.object(try #require(run.stdoutLines.last))
        #expect(result["exit_code"] as? Int == 4)
        let failures = try #require(result["failures"] as? [[String: Any]])
        #expect(failures.first?["check"] as? String == "battery")
        #expect(!run.stdout.contains("\"progress\""))
    }

    @Test func sameVersionExitsFourUnlessDowngradeIsAllowed() throws {
        let refused = try Self.flash(sim: "version=1.1.0")
        #expect(refused.exitCode == 4)
        #expect(refused.stderr.contains("not newer than the running 1.1.0+0"))
        #expect(refused.stderr.contains("--allow-downgrade"))
        let allowed = try Self.flash(["--allow-downgrade"], sim: "version=1.1.0")
        #expect(allowed.exitCode == 0, "\(allowed.output)")
        #expect(allowed.stdout.contains("allowed by --allow-downgrade"))
    }

    @Test func deviceWithAnotherBootloaderKeyRollsBackAndExitsEight() throws {
        let run = try Self.flash(sim: "key=\(Self.otherKey)")
        #expect(run.exitCode == 8)
        #expect(run.stderr.contains("came back running 1.0.0+0: it rolled back or refused the image"))
    }

    @Test func corruptImageExitsThreeBeforeConnecting() throws {
        let run = try Self.flash(image: "firmware-samples/broken/tampered-body.bin")
        #expect(run.exitCode == 3)
        #expect(run.stderr.contains("hash mismatch"))
        #expect(!run.stdout.contains("connected"))
    }

    @Test func missingImageFileExitsThree() throws {
        let run = try Self.flash(["--json"], image: "does-not-exist.bin")
        #expect(run.exitCode == 3)
        let result = try Self.object(try #require(run.stdoutLines.last))
        #expect((result["error"] as? String)?.contains("does-not-exist.bin") == true)
    }

    @Test(arguments: [
        (["--device", "bogus"], "invalid --device 'bogus'"),
        (["--device", "sim:battery=200"], "battery='200' is not valid"),
        (["--device", "sim:frobnicate=1"], "unknown virtual device option 'frobnicate'"),
        (["--device", "sim", "--mode", "fast"], "test-confirm, confirm-only, test-only, upload-only"),
        (["--device", "sim", "--min-battery", "120"], "--min-battery must be a percentage"),
        (["--device", "sim", "--chunk-timeout", "0"], "--chunk-timeout must be more than 0"),
        (["--device", "sim", "--connect-timeout", "86400"], "--connect-timeout must be more than 0 and at most 3600 seconds"),
        (["--device", "sim", "--connect-timeout", "soon"], "invalid value 'soon' for --connect-timeout: expected a number"),
        // One name per wait, after what it waits for: no catch-all --timeout.
        (["--device", "sim", "--timeout", "5"], "unknown option '--timeout'"),
        (["--device", "sim", "--adapter", "hci0"], "--adapter selects a Bluetooth adapter"),
        (["--device", "udp:127.0.0.1:1337", "--adapter", "hci0"], "--adapter selects a Bluetooth adapter"),
        (["--device", "AA:BB:CC:DD:EE:FF", "--adapter", "bt0"], "invalid --adapter 'bt0'"),
        ([], "missing option --device"),
    ] as [([String], String)])
    func badCommandLineExitsTwo(arguments: [String], message: String) throws {
        let run = try DFURun.run(["flash", Self.image] + arguments, timeout: 30)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func udpPortWithNothingListeningIsUnreachable() throws {
        let port = try Self.closedUDPPort()
        let run = try DFURun.run(["flash", Self.image, "--device", "udp:127.0.0.1:\(port)", "--key", Self.key,
                                  "--connect-timeout", "2"], timeout: 30)
        #expect([5, 6].contains(run.exitCode), "\(run.output)")
        #expect(run.stderr.contains("nothing listens at 127.0.0.1:\(port)"), "\(run.stderr)")
    }

    /// The same command against `dfu sim --serve udp:`, as against any SMP-over-UDP server. The
    /// server keeps the device between runs: the second run finds the image already running. The
    /// swap after the reset takes the device's real time (about 6 s).
    @Test func flashesAnSMPServerOverUDP() throws {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        let device = "udp:127.0.0.1:\(ready.port)"
        let run = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key], timeout: 60)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("connected: \(device), MTU"))
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on \(device)") == true)
        #expect(run.stderr.contains("device has no Battery Service"))
        let again = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key], timeout: 60)
        #expect(again.exitCode == 0)
        #expect(again.stderr.contains("already runs this image"))
        #expect(sim.stop().exitCode == 0)
    }

    /// A Bluetooth device goes through BlueZ: on a system bus where nobody owns org.bluez (a
    /// private dbus-daemon), flash stops before the device with exit 5 and the one-line fix, after
    /// reading the image and the key but before sending anything.
    @Test(.enabled(if: ScanTestBus.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
    func bluetoothDeviceWithoutBluetoothdExitsFiveWithTheFix() throws {
        try ScanTestBus.withBus { environment in
            let run = try DFURun.run(["flash", Self.image, "--device", "C2:11:40:55:7A:01", "--key", Self.key],
                                     timeout: 30, environment: environment)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr.contains("dfu: error: bluetoothd is not running"), "\(run.stderr)")
            #expect(run.stderr.contains("sudo systemctl start bluetooth"))
            #expect(!run.stdout.contains("uploading"))

            // --adapter is accepted for a Bluetooth device; by name too. --json: the result line.
            let json = try DFURun.run(["flash", Self.image, "--device", "name:sensor-12", "--adapter", "hci1",
                                       "--key", Self.key, "--json"], timeout: 30, environment: environment)
            #expect(json.exitCode == 5, "\(json.output)")
            #expect(json.stderr.isEmpty, "\(json.stderr)")
            let result = try Self.object(try #require(json.stdoutLines.last))
            #expect(result["event"] as? String == "result" && result["exit_code"] as? Int == 5)
            #expect((result["error"] as? String)?.contains("bluetoothd is not running") == true)
        }
    }

    /// The image is checked before BlueZ is needed: a tampered image is refused as such (exit 3)
    /// even where bluetoothd is missing.
    @Test(.enabled(if: ScanTestBus.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
    func aBadImageIsRefusedBeforeBluetoothIsNeeded() throws {
        try ScanTestBus.withBus { environment in
            let tampered = "firmware-samples/broken/tampered-body.bin"
            let run = try DFURun.run(["flash", tampered, "--device", "C2:11:40:55:7A:01", "--key", Self.key],
                                     timeout: 30, environment: environment)
            #expect(run.exitCode == 3, "\(run.output)")
            #expect(!run.stderr.contains("bluetoothd"), "\(run.stderr)")
        }
    }

    @Test func testOnlyModeReportsTheImageUnconfirmed() throws {
        let run = try Self.flash(["--mode", "test-only"])
        #expect(run.exitCode == 0)
        #expect(run.stdout.contains("not confirmed: the device goes back to its previous image on the next reset"))
    }

    @Test func uploadOnlyModeDoesNotActivate() throws {
        let run = try Self.flash(["--mode", "upload-only", "--json"])
        #expect(run.exitCode == 0)
        #expect(!run.stdout.contains("\"rebooting\""))
        #expect(run.stdout.contains("\"stage\":\"transfer\",\"status\":\"finished\""))
    }

    @Test func withoutAKeyTheSignatureIsNotCheckedAndSaysSo() throws {
        let run = try Self.flash(key: nil)
        #expect(run.exitCode == 0)
        #expect(run.stdout.contains("signature not checked (no --key)"))
        #expect(run.stderr.contains("warning: the image's signature was not checked (no --key)"))
    }

    @Test func verboseShowsStageTimingsWithoutTheFullAddress() throws {
        let run = try Self.flash(["--verbose"])
        #expect(run.exitCode == 0)
        #expect(run.stderr.contains("dfu: stage timings:"))
        #expect(run.stderr.contains("transfer"))
        // The derived identity looks like an address; only its last two parts may show.
        let shown = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("connected: ") })
        #expect(shown.contains("connected: …:"))
        let full = try Self.flash(["--full-addresses"])
        let fullShown = try #require(full.stdout.split(separator: "\n").first { $0.hasPrefix("connected: ") })
        #expect(!fullShown.contains("…"), "\(fullShown)")
    }

    @Test func linkLossMidUploadResumesAndCompletes() throws {
        let run = try Self.flash(sim: "fault=disconnect@40%")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("link lost; reconnected (attempt 1), resuming at"))
        #expect(run.stderr.contains("warning: the link to …:"))
    }

    @Test func helpListsEveryFlashOption() throws {
        let run = try DFURun.run(["flash", "--help"])
        #expect(run.exitCode == 0)
        for option in ["--device", "--adapter", "--key", "--mode", "--min-battery", "--allow-downgrade", "--allow-host-battery",
                       "--json", "--verbose", "--full-addresses", "--connect-timeout", "--reboot-timeout",
                       "--chunk-timeout", "--first-chunk-timeout"] {
            #expect(run.stdout.contains(option), "help lacks \(option)")
        }
        let root = try DFURun.run(["--help"])
        #expect(root.stdout.contains("\n  flash "))
    }

    // MARK: - Helpers

    static func object(_ line: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(value as? [String: Any], "not an object: \(line)")
    }

    /// A loopback UDP port nobody listens on: bound by the kernel's choice, then released.
    static func closedUDPPort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        try #require(bound)
        return UInt16(bigEndian: address.sin_port)
    }
}
