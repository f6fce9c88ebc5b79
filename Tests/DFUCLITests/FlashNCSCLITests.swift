import DFUCore
import Foundation
import Testing

/// `dfu flash dfu_application.zip`: an nRF Connect SDK build's images, each to its image index, on
/// the virtual device set up as an nRF5340 (`images=2`: image 1 is the network core). The built
/// binary against the in-process virtual device, as a user runs it.
@Suite(.serialized, .endToEnd) struct FlashNCSCLITests {
    static let nrf5340 = "firmware-samples/ncs/nrf5340-1.1.0.zip"

    static func events(_ run: DFURun, _ name: String) throws -> [[String: Any]] {
        try run.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == name }
    }

    @Test func bothImagesOfOneZipAreUploadedThenOneResetAndEachIsChecked() throws {
        let run = try FlashCLITests.flash(["--json"], sim: "images=2", image: Self.nrf5340)
        #expect(run.exitCode == 0, "\(run.output)")
        let images = try Self.events(run, "image")
        #expect(images.map { $0["image_index"] as? Int } == [0, 1])
        #expect(images.map { $0["role"] as? String } == ["application core", "network core"])
        let parts = try Self.events(run, "part")
        #expect(parts.map { $0["part"] as? String } == ["image 0 (application core)", "image 1 (network core)"])
        #expect(parts.map { $0["size"] as? Int } == [49814, 33430])
        #expect(try Self.events(run, "rebooting").count == 1, "one reset installs both")
        let versions = try Self.events(run, "version")
        #expect(versions.map { $0["image_index"] as? Int } == [1, 0])
        #expect(versions.allSatisfy { $0["version"] as? String == "1.1.0+0" && $0["confirmed"] as? Bool == true })
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last))
        #expect(result["ok"] as? Bool == true && result["version"] as? String == "1.1.0+0")
        // Both images' progress is named, so a script can tell them apart.
        let named = try Self.events(run, "progress").compactMap { $0["part"] as? String }
        #expect(named.contains("image 0 (application core) 1/2") && named.contains("image 1 (network core) 2/2"))
    }

    @Test func theTerminalNamesEachImageAndWarnsThatImageOneIsMadePermanent() throws {
        let run = try FlashCLITests.flash([], sim: "images=2", image: Self.nrf5340)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("image checked: nrf5340-1.1.0.zip image 1 (network core) 1.1.0+0, 33.4 kB, ECDSA P-256 signature ok"))
        #expect(run.stdout.contains("uploading 83.2 kB"))
        #expect(run.stdout.contains("sending image 1 (network core) 2/2, 33.4 kB"))
        #expect(run.stdout.contains("device reports image 1 (network core) 1.1.0+0, active"))
        #expect(run.stderr.contains("warning: image 1 (network core) will be made permanent before the reset"), "\(run.stderr)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on …:") == true)
    }

    @Test func aLinkDropDuringTheSecondImageResumesItInTheSameRun() throws {
        let run = try FlashCLITests.flash(["--json"], sim: "images=2,fault=disconnect@image1/50%", image: Self.nrf5340)
        #expect(run.exitCode == 0, "\(run.output)")
        let lines = try run.stdoutLines.map(FlashCLITests.object)
        let secondPart = try #require(lines.firstIndex { $0["event"] as? String == "part" && $0["number"] as? Int == 2 })
        let resumed = try #require(lines.firstIndex { $0["event"] as? String == "resumed" }, "\(run.output)")
        #expect(resumed > secondPart, "the drop was in image 1's upload")
        #expect((lines[resumed]["offset"] as? Int ?? 0) > 0, "resumed where the device was, not from 0")
        #expect(try Self.events(run, "rebooting").count == 1)
    }

    @Test func aBadSecondImageRefusesTheWholeZipBeforeAnythingIsSent() throws {
        let run = try FlashCLITests.flash(["--json"], sim: "images=2", image: "firmware-samples/ncs/broken/tampered-net-core.zip")
        #expect(run.exitCode == 3, "\(run.output)")
        #expect(try Self.events(run, "stage").allSatisfy { $0["stage"] as? String == "verify-image" }, "no connect")
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last))
        #expect((result["error"] as? String)?.hasPrefix("ipc_radio.bin (image 1): image hash mismatch") == true, "\(result)")
    }

    @Test func aZipWithAnImageSignedWithAnotherKeyIsRefused() throws {
        let run = try FlashCLITests.flash([], sim: "images=2", image: "firmware-samples/ncs/broken/net-core-other-key.zip")
        #expect(run.exitCode == 3, "\(run.output)")
        #expect(run.stderr.contains("(image 1)"), "\(run.stderr)")
        #expect(!run.stdout.contains("connected"))
    }

    @Test func aDeviceWithoutTheZipsSecondImageIndexIsRefusedBeforeTheUpload() throws {
        let run = try FlashCLITests.flash([], image: Self.nrf5340)
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("lists no image 1"), "\(run.stderr)")
        #expect(!run.stdout.contains("sending"))
    }

    @Test func imageIndexWithAZipIsAUsageError() throws {
        let run = try FlashCLITests.flash(["--image", "1"], sim: "images=2", image: Self.nrf5340)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("--image is for a single MCUboot image"))
    }

    @Test func aZipOfOneImageFlashesLikeItsImage() throws {
        let run = try FlashCLITests.flash([], image: "firmware-samples/ncs/app-1.1.0.zip")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("device reports 1.1.0+0, active"))
        #expect(!run.stdout.contains("sending image"), "one image: no parts")
    }

    // The sim's MCUboot skips an image linked for the other slot (ROM_FIXED), so a confirmed
    // update proves the variant for the free slot went: the secondary's, 49,816 bytes.
    @Test(arguments: ["direct-xip", "direct-xip-revert"])
    func aDirectXIPDeviceGetsTheVariantForTheSlotItDoesNotRunFrom(bootloader: String) throws {
        let run = try FlashCLITests.flash(["--json"], sim: "bootloader=\(bootloader)",
                                          image: "firmware-samples/ncs/direct-xip-1.1.0.zip")
        #expect(run.exitCode == 0, "\(run.output)")
        let last = try #require(try Self.events(run, "progress").last)
        #expect(last["total"] as? Int == 49816, "the secondary slot's variant")
        let versions = try Self.events(run, "version")
        #expect(versions.count == 1 && versions.first?["confirmed"] as? Bool == true)
    }

    @Test func theVariantForTheWrongSlotIsSkippedByTheBootloaderAndReportedAsNotBooted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-xip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The primary slot's variant flashed as a single image lands in slot 1, where it cannot run.
        let zip = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "firmware-samples/ncs/direct-xip-1.1.0.zip")))
        let variant = try #require(try NCSPackage(zipBytes: zip).images.first { $0.entry.slot == 0 })
        try Data(variant.bytes).write(to: directory.appendingPathComponent("slot0.bin"))
        let run = try FlashCLITests.flash([], sim: "bootloader=direct-xip", image: directory.appendingPathComponent("slot0.bin").path)
        #expect(run.exitCode == 8, "\(run.output)")
        #expect(run.stderr.contains("came back running 1.0.0+0"), "\(run.stderr)")
    }

    @Test(arguments: ["ram-load", "ram-load-revert"])
    func aRAMLoadImageIsConfirmedRunningFromTheOtherSlot(bootloader: String) throws {
        let run = try FlashCLITests.flash([], sim: "bootloader=\(bootloader)",
                                          image: "firmware-samples/images/blinky-ramload-ecdsa-p256-1.1.0.signed.bin")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true)
    }

    @Test func anImageThatIsNotRAMLoadableIsNotBootedByARAMLoadDevice() throws {
        let run = try FlashCLITests.flash([], sim: "bootloader=ram-load")
        #expect(run.exitCode == 8, "\(run.output)")
        #expect(run.stderr.contains("came back running 1.0.0+0"), "\(run.stderr)")
    }

    @Test func aDirectXIPBuildOnASwappingDeviceExitsFour() throws {
        let run = try FlashCLITests.flash([], image: "firmware-samples/ncs/direct-xip-1.1.0.zip")
        #expect(run.exitCode == 4, "\(run.output)")
        #expect(run.stderr.contains("the zip is a direct-XIP build (one variant per slot), but the device's MCUboot runs in swap without scratch mode"),
                "\(run.stderr)")
        #expect(!run.stdout.contains("uploading"))
    }
}
