import Foundation
import NordicTestSupport
import Testing

/// `dfu flash PKG.zip` with a package that holds a system part and an application, as a user runs
/// it against the built-in virtual nRF52: each part named as it is sent, the application running
/// at the end.
@Suite(.serialized, .endToEnd) struct NordicMultiPartCLITests {
    /// `dfu flash multi.zip` with a package of `parts`, written for this run only.
    static func flash(_ parts: [NordicTestPackage.Part], _ extra: [String] = [], sim: String = "") throws -> DFURun {
        let device = "sim:protocol=nordic,timescale=0,inactivity=off" + (sim.isEmpty ? "" : "," + sim)
        return try NordicTestPackage(parts).withFile(named: "multi.zip") { package in
            try DFURun.run(["flash", package, "--device", device, "--key", NordicFlashCLITests.key] + extra, timeout: 30)
        }
    }

    @Test func softDeviceBootloaderAndApplicationAreFlashedInTurn() throws {
        let run = try Self.flash([try .softDeviceBootloader(version: 2), try .sampleApplication()], ["--expect-version", "0.0.3"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("image checked: multi.zip softdevice_bootloader fw_version 2 + application fw_version 3"),
                "\(run.stdout)")
        let lines = run.stdoutLines
        let system = try #require(lines.firstIndex { $0.hasPrefix("sending softdevice_bootloader 1/2") }, "\(run.stdout)")
        let application = try #require(lines.firstIndex { $0.hasPrefix("sending application 2/2") }, "\(run.stdout)")
        #expect(system < application)
        #expect(lines[system ..< application].contains("rebooting"), "the system part's reset comes before the application")
        #expect(lines.contains { $0.hasPrefix("uploading application 2/2: ") }, "\(run.stdout)")
        #expect(lines.last?.hasPrefix("OK: softdevice_bootloader fw_version 2 + application fw_version 3 activated on ") == true,
                "\(run.stdout)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func jsonNamesEachPart() throws {
        let run = try Self.flash([try .sampleBootloader(), try .sampleApplication()], ["--json"])
        #expect(run.exitCode == 0, "\(run.output)")
        let lines = run.stdoutLines
        #expect(lines.contains(#"{"event":"part","schema":2,"part":"bootloader","number":1,"count":2,"size":24576}"#), "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix(#"{"event":"part","schema":2,"part":"application","number":2,"count":2,"#) })
        #expect(lines.contains { $0.contains(#""event":"progress""#) && $0.contains(#""part":"bootloader 1/2""#) })
        #expect(lines.contains { $0.contains(#""event":"progress""#) && $0.contains(#""part":"application 2/2""#) })
        #expect(lines.last?.contains(#""exit_code":0"#) == true, "\(lines.last ?? "")")
    }

    @Test func aSystemPartTheDeviceAlreadyRunsIsSkippedWithAWarning() throws {
        let run = try Self.flash([try .softDeviceBootloader(version: 2), try .sampleApplication()], ["--expect-version", "0.0.3"],
                                 sim: "bl_version=2")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("declined softdevice_bootloader 1/2 as not newer than what it runs (FW VERSION TOO LOW"),
                "\(run.stderr)")
        #expect(run.stderr.contains("skipping to the application"))
        // The part the bootloader declined was not activated: only the application is named.
        #expect(run.stdoutLines.last?.hasPrefix("OK: application fw_version 3 activated on ") == true, "\(run.stdout)")
    }

    @Test func aSystemPartTheBootloaderRefusesOtherwiseIsExit7() throws {
        let run = try Self.flash([try .softDeviceBootloader(version: 2), try .sampleApplication()], sim: "sd=0x0102")
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("the bootloader rejected the init packet"), "\(run.stderr)")
        #expect(!run.stdout.contains("sending application"))
    }

    @Test func aPackageWithMoreThanOneSystemPartIsAUsageError() throws {
        let run = try Self.flash([try .softDeviceBootloader(version: 2), try .sampleBootloader(),
                                  try .sampleApplication()])
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("one system part (softdevice_bootloader, softdevice or bootloader) and an application"),
                "\(run.stderr)")
        #expect(!run.stdout.contains("connected"))
    }
}
