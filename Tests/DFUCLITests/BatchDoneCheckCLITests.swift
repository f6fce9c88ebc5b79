import Foundation
import Testing

/// `dfu batch` run again over devices an earlier run finished: the journal says what dfu did, the
/// device says what it runs. A device is skipped only when it was asked and runs the image; one
/// that was reflashed is flashed again; one that cannot be asked is not a success.
@Suite(.endToEnd) struct BatchDoneCheckCLITests {
    /// A device over UDP keeps its flash between batches (`dfu sim --serve`), so it can be done,
    /// then replaced by a fresh one at the same endpoint (a unit reworked and reflashed), then gone.
    @Test func aDeviceDoneBeforeIsSkippedOnlyAfterItWasAskedAndRunsTheImage() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        var sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let port = try #require(sim.ready()).port
        let device = "udp:127.0.0.1:\(port)"
        let plan = state + "/plan.csv"
        try "device,image\n\(device),\(BatchCLITests.root)/\(FlashCLITests.image)\n"
            .write(toFile: plan, atomically: true, encoding: .utf8)
        let arguments = ["batch", plan, "--key", BatchCLITests.key, "--connect-timeout", "2", "--json"]
        func deviceLine(_ run: DFURun) throws -> [String: Any] {
            try #require(try run.stdoutLines.map(FlashCLITests.object).first { $0["event"] as? String == "device" })
        }

        let first = try DFURun.run(arguments, timeout: 60, environment: ["XDG_STATE_HOME": state])
        let done = try deviceLine(first)
        #expect(first.exitCode == 0 && done["result"] as? String == "ok", "\(first.output)")

        // Done, and the device runs it: asked, skipped, nothing sent.
        let again = try DFURun.run(arguments, timeout: 60, environment: ["XDG_STATE_HOME": state])
        let skipped = try deviceLine(again)
        #expect(again.exitCode == 0, "\(again.output)")
        #expect(skipped["result"] as? String == "skipped" && skipped["bytes"] as? Int == 0, "\(again.stdout)")
        #expect(skipped["version_before"] as? String == "1.1.0+0", "the version read from the device: \(again.stdout)")
        #expect((skipped["error"] as? String)?.contains("read from the device") == true, "\(again.stdout)")

        // The unit was reworked: a fresh device at the same endpoint runs 1.0.0. Its journal still
        // says done, but it is flashed.
        #expect(sim.stop().exitCode == 0)
        sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:\(port)"])
        #expect(sim.ready() != nil)
        let reworked = try DFURun.run(arguments, timeout: 60, environment: ["XDG_STATE_HOME": state])
        let flashed = try deviceLine(reworked)
        #expect(reworked.exitCode == 0, "\(reworked.output)")
        #expect(flashed["result"] as? String == "ok" && flashed["version_before"] as? String == "1.0.0+0"
                && flashed["bytes"] as? Int == 49816, "\(reworked.stdout)")

        // Nothing answers any more: the journal says done, but that is not checked, so no success.
        #expect(sim.stop().exitCode == 0)
        let gone = try DFURun.run(arguments, timeout: 60, environment: ["XDG_STATE_HOME": state])
        let unchecked = try deviceLine(gone)
        #expect(gone.exitCode == 5, "\(gone.output)")
        #expect(unchecked["result"] as? String == "not-checked" && unchecked["exit_code"] as? Int == 5, "\(gone.stdout)")
        #expect((unchecked["error"] as? String)?.hasPrefix("an earlier run finished this update (1.1.0+0), but the device "
                                                           + "could not be asked") == true, "\(gone.stdout)")
        let summary = try #require(try gone.stdoutLines.map(FlashCLITests.object).last)
        #expect(summary["ok"] as? Bool == false && summary["not_checked"] as? Int == 1 && summary["skipped"] as? Int == 0)

        let text = try DFURun.run(Array(arguments.dropLast()), timeout: 60, environment: ["XDG_STATE_HOME": state])
        #expect(text.exitCode == 5)
        #expect(text.stdoutLines.first == "dfu batch: 1 device (1 done by an earlier run: asked first), up to 1 at a time",
                "\(text.stdout)")
        #expect(text.stdout.contains("NOT CHECKED " + device), "\(text.stdout)")
        #expect(text.stdoutLines.last?.hasPrefix("dfu batch: 0 ok, 0 failed, 1 not checked of 1 in ") == true, "\(text.stdout)")
    }

    /// The built-in virtual device starts afresh in every run: the second batch finds it on
    /// 1.0.0 again and flashes it, whatever the journal says.
    @Test func aVirtualDeviceThatStartsAfreshIsFlashedAgain() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let plan = state + "/plan.csv"
        try "device,image\n\"sim:id=again,timescale=0\",\(BatchCLITests.root)/\(FlashCLITests.image)\n"
            .write(toFile: plan, atomically: true, encoding: .utf8)
        let arguments = ["batch", plan, "--key", BatchCLITests.key, "--json"]
        for pass in 1 ... 2 {
            let run = try DFURun.run(arguments, timeout: 60, environment: ["XDG_STATE_HOME": state])
            let device = try #require(try run.stdoutLines.map(FlashCLITests.object).first { $0["event"] as? String == "device" })
            #expect(run.exitCode == 0, "pass \(pass): \(run.output)")
            #expect(device["result"] as? String == "ok" && device["version_before"] as? String == "1.0.0+0"
                    && device["bytes"] as? Int == 49816, "pass \(pass): \(run.stdout)")
        }
    }

    /// A Nordic application reports a version, not an image hash: a device done before is skipped
    /// when it reports the version that run left it with (the second, whose application already
    /// reports the package's version in every run), and flashed when it does not (the first,
    /// which starts afresh on an older one).
    @Test func aNordicDeviceDoneBeforeIsSkippedOnlyWhenItReportsTheVersionThatRunLeft() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let root = BatchCLITests.root
        let package = root + "/firmware-samples/nordic/app-signed-3.zip"
        let key = root + "/firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.pem"
        let plan = state + "/plan.csv"
        try """
            device,image,key
            "sim:protocol=nordic,timescale=0,inactivity=off",\(package),\(key)
            "sim:protocol=nordic,timescale=0,inactivity=off,version=3",\(package),\(key)
            """.write(toFile: plan, atomically: true, encoding: .utf8)
        let arguments = ["batch", plan, "--allow-downgrade", "--json"]
        func devices(_ run: DFURun) throws -> [[String: Any]] {
            try run.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == "device" }
                .sorted { ($0["line"] as? Int ?? 0) < ($1["line"] as? Int ?? 0) }
        }
        let first = try DFURun.run(arguments, timeout: 60, environment: ["XDG_STATE_HOME": state])
        let flashed = try devices(first).map { $0["result"] as? String }
        #expect(first.exitCode == 0 && flashed == ["ok", "ok"], "\(first.stdout)")

        let second = try DFURun.run(arguments, timeout: 60, environment: ["XDG_STATE_HOME": state])
        let again = try devices(second)
        #expect(second.exitCode == 0, "\(second.output)")
        #expect(again.map { $0["result"] as? String } == ["ok", "skipped"], "\(second.stdout)")
        #expect(again.map { $0["bytes"] as? Int } == [49152, 0], "\(second.stdout)")
        #expect((again.last?["error"] as? String)?.contains("the version an earlier run of this update left it with") == true)
    }
}
