import Foundation
import Testing

/// A Nordic update said in Nordic's words (issue 19, item 9): nothing is "confirmed" (the
/// bootloader activates the firmware itself), versions as the package writes them and the device
/// reports them, what a system-part update updated, a file of the other protocol refused before
/// connecting, and `dfu info --protocol smp` saying what it found instead.
@Suite(.serialized, .endToEnd) struct NordicWordsCLITests {
    static let bootloaderPackage = "firmware-samples/nordic/bootloader-signed-2.zip"

    @Test func anApplicationUpdateIsActivatedNotConfirmed() throws {
        let run = try NordicFlashCLITests.flash(["--expect-version", "0.0.3"])
        #expect(run.exitCode == 0, "\(run.output)")
        let lines = run.stdoutLines
        #expect(lines.contains("version 0.0.1 → application fw_version 3"), "\(run.stdout)")
        #expect(lines.contains("device reports firmware revision 0.0.3"), "\(run.stdout)")
        #expect(lines.contains("activated"), "\(run.stdout)")
        #expect(lines.last?.hasPrefix("OK: application fw_version 3 activated on …:") == true, "\(run.stdout)")
        #expect(lines.last?.contains("which reports firmware revision 0.0.3 (update took ") == true, "\(run.stdout)")
        #expect(!run.stdout.contains("confirmed"), "\(run.stdout)")
        #expect(!run.stdout.contains("0.0.3+0") && !run.stdout.contains("0.0.1+0"), "\(run.stdout)")
    }

    @Test func jsonSaysWhatTheBootloaderActivatedAndWhatTheDeviceReports() throws {
        let run = try NordicFlashCLITests.flash(["--json"])
        #expect(run.exitCode == 0, "\(run.output)")
        let lines = run.stdoutLines
        #expect(lines.contains(#"{"event":"firmware","schema":2,"update":"application fw_version 3","activated":true,"firmware_revision":"0.0.3"}"#),
                "\(run.stdout)")
        #expect(!lines.contains { $0.hasPrefix(#"{"event":"version""#) }, "no confirmed version: \(run.stdout)")
        #expect(lines.contains { $0.hasPrefix(#"{"event":"device","schema":2,"running_version":null,"#) && $0.contains(#""firmware_revision":"0.0.1""#) },
                "\(run.stdout)")
        #expect(lines.last == #"{"event":"result","schema":2,"command":"flash","ok":true,"exit_code":0,"version":"application fw_version 3","error":null}"#,
                "\(run.stdout)")
    }

    /// A package of the bootloader alone: the result names the bootloader, and the application's
    /// revision is not held against the bootloader's fw_version.
    @Test func aBootloaderUpdateNamesTheBootloader() throws {
        let run = try NordicFlashCLITests.flash(package: Self.bootloaderPackage)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: bootloader fw_version 2 activated on …:") == true, "\(run.stdout)")
        #expect(run.stdoutLines.last?.contains("which reports firmware revision 0.0.1") == true, "\(run.stdout)")
        #expect(!run.stdout.contains("→"), "no version comparison between an application and a bootloader: \(run.stdout)")
    }

    @Test func anOlderPackageIsRefusedInTheVersionsNordicWrites() throws {
        let run = try NordicFlashCLITests.flash(sim: "version=1.0.0")
        #expect(run.exitCode == 4, "\(run.output)")
        #expect(run.stderr.contains("application fw_version 3 is not newer than the running firmware revision 1.0.0 "
                                    + "(fw_version 10000)"), "\(run.stderr)")
    }

    @Test(arguments: [
        (FlashCLITests.image, "sim:protocol=nordic,timescale=0", "is an update for SMP (MCUmgr), but"),
        (NordicFlashCLITests.package, "sim:timescale=0", "is an update for Nordic Secure DFU, but"),
    ])
    func aFileOfTheOtherProtocolIsTheWrongFileBeforeConnecting(file: String, device: String, words: String) throws {
        let run = try DFURun.run(["flash", file, "--device", device], timeout: 30)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("dfu: error: wrong file for this device: "), "\(run.stderr)")
        #expect(run.stderr.contains(words), "\(run.stderr)")
        #expect(!run.stdout.contains("connected"), "\(run.stdout)")
    }

    /// The bootloader activates the firmware when the transfer ends: no test boot, nothing to
    /// confirm later, no upload that stays inactive.
    @Test(arguments: ["test-only", "upload-only"])
    func modesTheBootloaderCannotHonourAreRefused(mode: String) throws {
        let run = try NordicFlashCLITests.flash(["--mode", mode])
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("--mode \(mode) does not apply to a Nordic DFU package"), "\(run.stderr)")
        #expect(!run.stdout.contains("connected"), "\(run.stdout)")
    }

    @Test func infoWithTheOtherProtocolSaysWhatTheDeviceOffers() throws {
        let run = try DFURun.run(["info", "--device", "sim:protocol=nordic,timescale=0", "--protocol", "smp"], timeout: 30)
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(run.stderr.contains("does not speak SMP (MCUmgr)"), "\(run.stderr)")
        #expect(run.stderr.contains("It offers Nordic Secure DFU instead: run without --protocol, or with --protocol nordic."),
                "\(run.stderr)")
    }

    /// A dry run names what follows the upload in Nordic's terms: the bootloader activates it, there
    /// is no test-confirm step.
    @Test func aDryRunSaysTheBootloaderActivatesNotTestConfirm() throws {
        let run = try NordicFlashCLITests.flash(["--dry-run"])
        #expect(run.exitCode == 0, "\(run.output)")
        let last = try #require(run.stdoutLines.last)
        #expect(last.contains("would get 49.2 kB (application fw_version 3), then activated by its bootloader."), "\(last)")
        #expect(!run.stdout.contains("test-confirm"), "\(run.stdout)")
    }

    /// On an unpaced clock (`timescale=0`) the bootloader's inactivity timer is off unless given:
    /// an idle wait jumps to its deadline there, which ended DFU mode at once.
    @Test func anUnpacedNordicSimIsFlashedWithoutInactivityOff() throws {
        let run = try DFURun.run(["flash", NordicFlashCLITests.package, "--device", "sim:protocol=nordic,timescale=0",
                                  "--key", NordicFlashCLITests.key], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: application fw_version 3 activated") == true, "\(run.stdout)")
    }
}
