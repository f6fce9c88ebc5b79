import Foundation
import Testing

/// `dfu flash` (and `dfu info`) when the BLE link goes down at one SMP request: the virtual device
/// closes the link as the request arrives (`drop-before@`: the request is lost), instead of
/// answering it once carried out (`drop@`: the answer is lost), or right after its answer
/// (`drop-after@`), behind a host that, like bluetoothd, reports the drop 60 ms late (`drop_report=`:
/// meanwhile Write Commands vanish). One case per row of docs/engine.md, "When the link goes
/// down": every one reconnects and carries on, asking the device what it did where the request
/// changes it. Paced (a quarter of real time): unpaced, an idle link jumps past the report delay.
@Suite(.serialized, .endToEnd) struct SMPLinkLossCLITests {
    static func flash(fault: String, dropReport: Bool = true, _ extra: [String] = []) throws -> DFURun {
        let device = "sim:timescale=0.25" + (dropReport ? ",drop_report=60ms" : "") + ",fault=" + fault
        return try DFURun.run(["flash", FlashCLITests.image, "--device", device, "--key", FlashCLITests.key] + extra,
                              timeout: 60)
    }

    /// A row's case: the fault and the warning the user sees.
    struct Case: CustomTestStringConvertible, Sendable {
        let fault: String
        let warning: String
        var dropReport = true
        var testDescription: String { fault + (dropReport ? "" : ", reported at once") }
    }

    static let reads = "went down while its state was read; reconnecting"
    static let upload = "was lost (closed by the device (HCI 0x13)); reconnecting"
    static let mark = "was lost before it answered the request to mark the new image for test"
    static let notReset = "has not restarted since the image was marked (the reset or its answer was lost with the link); "
        + "resetting it again"
    static let check = "was lost during the check after the reboot"

    static let cases: [Case] = [
        // Connect and read-device-state: nothing written yet; the reads start over on a new link.
        Case(fault: "drop@request:params", warning: reads),
        Case(fault: "drop@request:echo", warning: reads),
        Case(fault: "drop-before@request:suit", warning: reads),
        Case(fault: "drop@request:state-read", warning: reads),
        Case(fault: "drop@request:slot-info", warning: reads),
        Case(fault: "drop@request:bootloader-info", warning: reads),
        // Transfer: resumed from the device's offset (after the last chunk: its image list).
        Case(fault: "drop-before@request:upload:1", warning: upload),
        Case(fault: "drop@request:upload:5", warning: upload),
        Case(fault: "drop@request:upload:last", warning: upload),
        // The last chunk answered, then the drop: the mark goes out on the dying link.
        Case(fault: "drop-after@request:upload:last", warning: mark),
        // Mark: request lost (marked again) or answer lost (the image list shows it pending).
        Case(fault: "drop-before@request:state-write", warning: mark),
        Case(fault: "drop@request:state-write", warning: mark),
        // The mark answered, the reset lost with the link: the device comes back unreset.
        Case(fault: "drop-after@request:state-write", warning: notReset),
        Case(fault: "drop-after@request:state-write", warning: notReset, dropReport: false),
        // Reset: lost, or carried out with the link back before the device reset.
        Case(fault: "drop-before@request:reset", warning: notReset),
        Case(fault: "drop@request:reset", warning: notReset),
        Case(fault: "drop@request:reset", warning: notReset, dropReport: false),
        // After the reboot: the image list, the confirm (lost, or taken with its answer lost),
        // the image list after the confirm.
        Case(fault: "drop@request:state-read:2", warning: check),
        Case(fault: "drop-before@request:state-write:2", warning: check),
        Case(fault: "drop@request:state-write:2", warning: check),
        Case(fault: "drop@request:state-read:3", warning: check),
    ]

    @Test(arguments: cases)
    func aLinkLostAtARequestIsRestoredAndTheUpdateCompletes(_ row: Case) throws {
        let run = try Self.flash(fault: row.fault, dropReport: row.dropReport)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("warning: ") && run.stderr.contains(row.warning), "\(run.stderr)")
        #expect(!run.stderr.contains("error"), "\(run.stderr)")
        #expect(run.stdout.contains("marked for test") && run.stdout.contains("device reports 1.1.0+0, active"),
                "\(run.stdout)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on …:") == true, "\(run.stdout)")
    }

    /// The answer to a mark lost: the image list after reconnecting shows it taken; not sent again.
    @Test func aMarkWhoseAnswerWasLostIsReadBackNotSentAgain() throws {
        let run = try Self.flash(fault: "drop@request:state-write", ["--verbose"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("the device had taken the mark before the link went down"), "\(run.stderr)")
    }

    /// A permanent mark (confirm-only) whose answer was lost reads back the same way.
    @Test func aPermanentMarkWhoseAnswerWasLostIsReadBack() throws {
        let run = try Self.flash(fault: "drop@request:state-write", ["--mode", "confirm-only"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("was lost before it answered the request to confirm the new image"), "\(run.stderr)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true, "\(run.stdout)")
    }

    /// A device whose bootloader refuses the image is still exit 8 when the reset's answer was lost:
    /// MCUboot erased the image, so it is not taken for a device that did not reset.
    @Test func aRefusedImageAfterALostResetAnswerIsStillARollback() throws {
        let device = "sim:timescale=0.25,drop_report=60ms,fault=drop@request:reset,key=" + FlashCLITests.otherKey
        let run = try DFURun.run(["flash", FlashCLITests.image, "--device", device, "--key", FlashCLITests.key], timeout: 60)
        #expect(run.exitCode == 8, "\(run.output)")
        #expect(run.stderr.contains("came back running 1.0.0+0: it rolled back or refused the image"), "\(run.stderr)")
    }

    /// `dfu info` reads again on a new link, the board (OS info) included.
    @Test(arguments: ["drop@request:state-read", "drop@request:os-info"])
    func infoReadsAgainAfterALinkLoss(fault: String) throws {
        let run = try DFURun.run(["info", "--device", "sim:timescale=0.25,images=2,drop_report=60ms,fault=" + fault],
                                 timeout: 60)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains(Self.reads), "\(run.stderr)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("board") && $0.hasSuffix("nrf5340dk") }, "\(run.stdout)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("image 1 slot 0") && $0.hasSuffix("running, confirmed") },
                "\(run.stdout)")
    }
}
