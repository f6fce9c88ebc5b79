import Foundation
import Testing

/// One version format, `1.2.3+45`, and one arrow, `→`, wherever dfu shows an MCUboot version
/// (issue 19, item 10): `info` (terminal and JSON), `flash`, `batch` and `dfu sim`'s own lines, as
/// `verify` and the flash output already wrote them. Zephyr's image list says `1.2.3.45`.
@Suite(.serialized, .endToEnd) struct VersionFormatCLITests {
    @Test func infoShowsSlotVersionsWithTheBuildAfterAPlus() throws {
        let table = try DFURun.run(["info", "--device", "sim:timescale=0,version=1.2.3+45"], timeout: 30)
        #expect(table.exitCode == 0, "\(table.output)")
        #expect(table.stdoutLines.contains("slot 0             1.2.3+45: running, confirmed"), "\(table.stdout)")
        let json = try DFURun.run(["info", "--device", "sim:timescale=0,version=1.2.3+45", "--json"], timeout: 30)
        #expect(json.exitCode == 0, "\(json.output)")
        #expect(json.stdout.contains(#""running_version":"1.2.3+45""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""slots":[{"image":0,"slot":0,"version":"1.2.3+45","#), "\(json.stdout)")
    }

    @Test func flashAndVerifyAgreeWithInfo() throws {
        let verify = try DFURun.run(["verify", "firmware-samples/images/blinky-ecdsa-p256-1.2.3+45.signed.bin"])
        #expect(verify.stdoutLines.contains("version              1.2.3+45"), "\(verify.stdout)")
        let flash = try FlashCLITests.flash(image: "firmware-samples/images/blinky-ecdsa-p256-1.2.3+45.signed.bin")
        #expect(flash.exitCode == 0, "\(flash.output)")
        #expect(flash.stdoutLines.contains("version 1.0.0+0 → 1.2.3+45"), "\(flash.stdout)")
        #expect(flash.stdoutLines.contains("device reports 1.2.3+45, active"), "\(flash.stdout)")
    }

    @Test func batchLinesUseTheSameArrowAsFlash() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let root = DFUBinary.repositoryRoot.path
        let plan = state + "/plan.csv"
        try "device,image\n\"sim:id=v1,timescale=0\",\(root)/\(FlashCLITests.image)\n"
            .write(toFile: plan, atomically: true, encoding: .utf8)
        let run = try DFURun.run(["batch", plan], timeout: 60, environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("OK ") && $0.contains("  1.0.0+0 → 1.1.0+0  ") }, "\(run.stdout)")
        #expect(!run.stdout.contains("->"), "\(run.stdout)")
    }

    /// `dfu sim` says versions as dfu does (`1.0.0+0`), not as Zephyr's image list (`1.0.0`).
    @Test func theServedDeviceSaysVersionsAsDfuDoes() throws {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0", "--version", "1.2.3+45"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        #expect(ready.line.hasSuffix(", version 1.2.3+45)"), "\(ready.line)")
        let flash = try DFURun.run(["flash", FlashCLITests.image, "--device", "udp:127.0.0.1:\(ready.port)",
                                    "--mode", "upload-only", "--allow-downgrade"], timeout: 60)
        let ended = sim.stop()
        #expect(flash.exitCode == 0, "\(flash.output)")
        #expect(ended.stdoutLines.contains { $0.hasPrefix("dfu sim: upload complete: 49816 bytes, slot 1 holds 1.1.0+0 (hash ") },
                "\(ended.stdoutLines)")
        #expect(ended.stdoutLines.last?.hasSuffix("reset(s), running 1.2.3+45") == true, "\(ended.stdoutLines)")
    }
}
