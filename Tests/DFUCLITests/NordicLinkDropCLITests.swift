import Foundation
import Testing

/// A bootloader that closes the link at the worst moments (`sim:drop=`), behind a host that, like
/// bluetoothd, reports the drop only after failing the next Control Point write with ATT 0x0E
/// (`drop_report=`): dfu takes such a write's failure for the link loss it is and resumes from the
/// bootloader's Select, as for any other drop.
@Suite(.serialized, .endToEnd) struct NordicLinkDropCLITests {
    /// Paced (a quarter of real time): unpaced, an idle link jumps past the host's report delay
    /// before the next write, and the window this suite is about never opens. Checked: with the
    /// link check off (`linkVerdictDelay` zero) the `create` and `execute` cases end in exit 7,
    /// "refused a Control Point write (ATT error 0x0E)", the failure first seen on bluetoothd.
    static func flash(sim: String, _ extra: [String] = []) throws -> DFURun {
        try DFURun.run(["flash", NordicFlashCLITests.package, "--device", "sim:protocol=nordic,timescale=0.25," + sim,
                        "--key", NordicFlashCLITests.key, "--expect-version", "0.0.3"] + extra, timeout: 60)
    }

    @Test(arguments: ["drop=create:2", "drop=execute:1", "drop=packet:40", "drop=create:2+execute:5+packet:300"])
    func aDropReportedAfterTheNextWriteFailedIsResumed(drops: String) throws {
        let run = try Self.flash(sim: drops + ",drop_report=60ms")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("was lost"), "the drop is reported as a link loss: \(run.stderr)")
        #expect(!run.output.contains("refused a Control Point write"), "\(run.output)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: application fw_version 3 activated on ") == true, "\(run.stdout)")
    }

    /// SDK 17 keeps data progress only in the settings page, which it writes at object boundaries:
    /// after a drop inside an object the transfer continues from the last executed one.
    @Test func aDropInsideAnObjectOnSDK17ResumesFromTheLastExecutedObject() throws {
        let run = try Self.flash(sim: "sdk=17,drop=packet:150", ["--verbose"])
        #expect(run.exitCode == 0, "\(run.output)")
    }

    /// A refusal that is not a dying link stays a refusal: the bootloader's own error answer.
    @Test func aGenuineRefusalIsStillARefusal() throws {
        let run = try Self.flash(sim: "key=" + NordicFlashCLITests.otherKey + ",drop_report=60ms")
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("the bootloader rejected the init packet"), "\(run.stderr)")
    }
}
