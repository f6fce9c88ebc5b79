import Foundation
import Testing

/// `dfu flash` against what newer MCUboot/Zephyr devices do: several image indexes (an nRF5340's
/// network core), a device that answers busy, the device's own version check. The built binary
/// against the in-process virtual device, as a user runs it.
@Suite(.serialized, .endToEnd) struct FlashDeviceKindsCLITests {
    @Test func imageOneIsUpdatedConfirmOnlyAndSaysSo() throws {
        let run = try FlashCLITests.flash(["--image", "1"], sim: "images=2")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("warning: image 1 is updated confirm-only"), "\(run.stderr)")
        #expect(run.stdout.contains("version 1.0.0+0 → 1.1.0+0"))
        #expect(run.stdout.contains("device reports 1.1.0+0, active"))
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on …:") == true)
    }

    @Test func imageIndexTheDeviceDoesNotHaveExitsSeven() throws {
        let run = try FlashCLITests.flash(["--image", "1", "--mode", "test-only"])
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("lists no image 1"), "\(run.stderr)")
        #expect(!run.stdout.contains("uploading"))
    }

    @Test func imageIndexOutOfRangeIsAUsageError() throws {
        let run = try FlashCLITests.flash(["--image", "16"])
        #expect(run.exitCode == 2)
        #expect(run.stderr.contains("--image must be an image index from 0 to 15"))
    }

    @Test func infoListsEveryImageIndexAndItsSlots() throws {
        let run = try DFURun.run(["info", "--device", "sim:images=2,timescale=0"], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        let lines = run.stdoutLines
        #expect(lines.contains("image 0 slot 0       1.0.0+0: running, confirmed"), "\(lines)")
        #expect(lines.contains("image 0 slot 1       empty"))
        #expect(lines.contains("image 1 slot 0       1.0.0+0: running, confirmed"))
        #expect(lines.last == "image 1 slot 1       empty")
    }

    @Test func infoNamesTheCoreOfEachImageFromTheBoardTheDeviceReports() throws {
        let run = try DFURun.run(["info", "--device", "sim:images=2,timescale=0"], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        let lines = run.stdoutLines
        #expect(lines.contains("board                nrf5340dk"), "\(lines)")
        let app = try #require(lines.firstIndex(of: "image 0              application core"))
        let net = try #require(lines.firstIndex(of: "image 1              network core"))
        #expect(lines[app + 1].hasPrefix("image 0 slot 0") && lines[net + 1].hasPrefix("image 1 slot 0"))
        let json = try DFURun.run(["info", "--device", "sim:images=2,timescale=0", "--json"], timeout: 30)
        let object = try FlashCLITests.object(try #require(json.stdoutLines.last))
        let slots = try #require(object["slots"] as? [[String: Any]])
        #expect(slots.map { $0["core"] as? String } == ["application core", "network core"])
        #expect(object["board"] as? String == "nrf5340dk")
    }

    @Test func aOneImageDeviceIsNotAskedItsBoard() throws {
        let run = try DFURun.run(["info", "--device", "sim:timescale=0"], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(!run.stdout.contains("board"))
        #expect(!run.stdout.contains("application core"))
    }

    @Test func busyDeviceMidUploadIsWaitedForAndTheUpdateCompletes() throws {
        let run = try FlashCLITests.flash(["--json"], sim: "fault=busy@40%:3")
        #expect(run.exitCode == 0, "\(run.output)")
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last))
        #expect(result["ok"] as? Bool == true && result["version"] as? String == "1.1.0+0")
    }

    @Test func deviceThatStaysBusyExitsSixAndSaysSo() throws {
        let run = try FlashCLITests.flash([], sim: "fault=busy@40%:50")
        #expect(run.exitCode == 6, "\(run.output)")
        #expect(run.stderr.contains("the device stayed busy (MGMT_ERR_EBUSY)"), "\(run.stderr)")
    }

    @Test func requireNewerWithAnImageThatIsNotNewerIsRefusedByTheDevice() throws {
        let run = try FlashCLITests.flash(["--require-newer"], sim: "version=1.1.0")
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stdout.contains("version 1.1.0+0 → 1.1.0+0 (not newer; the device decides, --require-newer)"))
        #expect(run.stderr.contains("the device refuses an image that is not newer than the one it runs"), "\(run.stderr)")
        #expect(run.stderr.contains("CURRENT_VERSION_IS_NEWER"))
        #expect(!run.stdout.contains("marked"), "nothing activated")
    }

    @Test func requireNewerWithANewerImageUpdates() throws {
        let run = try FlashCLITests.flash(["--require-newer"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true)
    }

    @Test func requireNewerAndAllowDowngradeContradict() throws {
        let run = try FlashCLITests.flash(["--require-newer", "--allow-downgrade"])
        #expect(run.exitCode == 2)
        #expect(run.stderr.contains("--require-newer and --allow-downgrade contradict each other"))
    }

    // Exit 4 (a precondition failed, nothing sent): the device cannot take what dfu sends, no
    // retry will change that, and nothing on the device was touched.
    @Test(arguments: [
        ("suit", "the device updates with SUIT (it answers SMP group 66, SUIT management)"),
        ("firmware-loader", "the device's MCUboot runs in firmware loader mode (bootloader info mode 7)"),
    ])
    func deviceDfuCannotUpdateExitsFourWithAClearMessage(kind: String, message: String) throws {
        let run = try FlashCLITests.flash([], sim: "bootloader=\(kind)")
        #expect(run.exitCode == 4, "\(run.output)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.contains("dfu does not support updating it. Nothing was sent."))
        #expect(!run.stdout.contains("uploading"))
    }

    @Test func infoNamesASUITDeviceAndAFirmwareLoader() throws {
        let suit = try DFURun.run(["info", "--device", "sim:bootloader=suit,timescale=0"], timeout: 30)
        #expect(suit.exitCode == 0, "\(suit.output)")
        #expect(suit.stdoutLines.contains("bootloader mode    SUIT"), "\(suit.stdoutLines)")
        #expect(suit.stdoutLines.contains { $0.hasPrefix("dfu support        not supported: the device updates with SUIT") })
        let loader = try DFURun.run(["info", "--device", "sim:bootloader=firmware-loader,timescale=0", "--json"], timeout: 30)
        #expect(loader.exitCode == 0, "\(loader.output)")
        let info = try FlashCLITests.object(try #require(loader.stdoutLines.last))
        #expect(info["bootloader_mode"] as? String == "firmware loader")
        #expect((info["unsupported"] as? String)?.contains("firmware loader mode") == true)
    }
}
