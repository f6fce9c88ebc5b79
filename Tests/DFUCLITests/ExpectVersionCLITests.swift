import Foundation
import Testing

/// `--expect-version`, and a plan's `expect_version` column, are never ignored (issue 19, item 1):
/// an MCUboot image is held to it before anything is connected (the device reports the image's
/// own version once it runs it), every protocol to what the device reports after the reboot
/// (exit 8), and where nothing reboots into the new image it cannot be checked, so it is refused.
@Suite(.serialized, .endToEnd) struct ExpectVersionCLITests {
    @Test func anImageOfAnotherVersionIsRefusedBeforeAnythingIsConnected() throws {
        let run = try FlashCLITests.flash(["--expect-version", "9.9.9"])
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("dfu: error: --expect-version 9.9.9 cannot be met: the image is version 1.1.0+0"),
                "\(run.stderr)")
        #expect(!run.stdout.contains("connected"), "\(run.stdout)")
        #expect(!run.stdout.contains("OK"), "\(run.stdout)")
    }

    /// `M.m.r` leaves the build out of the comparison; a build given is compared.
    @Test(arguments: [("1.1.0", 0), ("1.1.0+0", 0), ("1.1.0.0", 0), ("1.1.0+7", 2), ("1.1", 2)] as [(String, Int32)])
    func theVersionIsComparedAsTheImageCarriesIt(expected: String, exitCode: Int32) throws {
        let run = try FlashCLITests.flash(["--expect-version", expected])
        #expect(run.exitCode == exitCode, "\(run.output)")
        if exitCode == 0 {
            #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on ") == true, "\(run.stdout)")
        }
    }

    @Test func aTextThatIsNoImageVersionIsAUsageError() throws {
        let run = try FlashCLITests.flash(["--expect-version", "v1.1.0-rc1"])
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("is not a version an MCUboot image carries"), "\(run.stderr)")
    }

    @Test func uploadOnlyCannotCheckItSoTheCombinationIsRefused() throws {
        let run = try FlashCLITests.flash(["--expect-version", "1.1.0", "--mode", "upload-only"])
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("--expect-version cannot be checked with --mode upload-only"), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }

    /// Over UDP (`dfu sim --serve`), the same refusal, with the JSON result saying so; the server
    /// never saw an upload.
    @Test func overUDPTheImageIsRefusedToo() throws {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        let run = try DFURun.run(["flash", FlashCLITests.image, "--device", "udp:127.0.0.1:\(ready.port)",
                                  "--expect-version", "9.9.9", "--json"], timeout: 30)
        let ended = sim.stop()
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stdoutLines.last?.contains(#""ok":false,"exit_code":2,"version":null"#) == true, "\(run.stdout)")
        #expect(!ended.stdoutLines.contains { $0.contains("upload started") }, "\(ended.stdoutLines)")
    }

    /// Nordic: the application's firmware revision after the reboot is what counts.
    @Test func aNordicApplicationReportingAnotherRevisionIsExit8() throws {
        let run = try NordicFlashCLITests.flash(["--expect-version", "9.9.9"])
        #expect(run.exitCode == 8, "\(run.output)")
        #expect(run.stderr.contains("came back reporting firmware revision 0.0.3, not 9.9.9 (--expect-version)"), "\(run.stderr)")
    }

    /// A plan's `expect_version` goes the same way: the row that cannot meet it fails (exit 2,
    /// nothing sent to that device), the other is flashed.
    @Test func aPlanRowsExpectedVersionIsHeldToo() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let root = DFUBinary.repositoryRoot.path
        let plan = state + "/plan.csv"
        try """
            device,image,expect_version
            "sim:id=e1,timescale=0",\(root)/\(FlashCLITests.image),9.9.9
            "sim:id=e2,timescale=0",\(root)/\(FlashCLITests.image),1.1.0

            """.write(toFile: plan, atomically: true, encoding: .utf8)
        let run = try DFURun.run(["batch", plan, "--json"], timeout: 60, environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode != 0, "\(run.output)")
        let first = try #require(run.stdoutLines.first { $0.contains(#""device":"sim:id=e1"#) }, "\(run.stdout)")
        #expect(first.contains(#""result":"failed","exit_code":2"#), "\(first)")
        #expect(first.contains(#""bytes":0"#), "\(first)")
        let second = try #require(run.stdoutLines.first { $0.contains(#""device":"sim:id=e2"#) }, "\(run.stdout)")
        #expect(second.contains(#""result":"ok","exit_code":0"#), "\(second)")
    }
}
