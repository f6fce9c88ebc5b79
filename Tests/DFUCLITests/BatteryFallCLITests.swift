import Foundation
import Testing

/// `dfu flash` against a device whose battery falls below `--min-battery` during the upload
/// (`sim:fault=battery@50%:12`): dfu reads the battery again before activating and stops there,
/// exit 4, the image uploaded and not activated (MCUboot's swap is the step a brown-out must not
/// cut). That a second run, once the device is charged, only activates is `EngineBatteryFallTests`.
@Suite(.serialized, .endToEnd) struct BatteryFallCLITests {
    static let fault = "fault=battery@50%:12"

    @Test func aBatteryThatFallsDuringTheUploadStopsBeforeActivating() throws {
        let run = try FlashCLITests.flash(sim: Self.fault)
        #expect(run.exitCode == 4, "\(run.output)")
        #expect(run.stdout.contains("battery 80 % ≥ 30 %"), "checked before the transfer as ever: \(run.stdout)")
        #expect(run.stdout.contains("uploaded"), "\(run.stdout)")
        #expect(run.stderr.contains("dfu: error: the device's battery fell to 12 % during the transfer (minimum 30 %); "
                                    + "the image is uploaded but not activated. Charge the device and run the same "
                                    + "command again"), "\(run.stderr)")
        #expect(!run.stdout.contains("marked for test"), "\(run.stdout)")
        #expect(!run.stdout.contains("rebooting"), "\(run.stdout)")
    }

    @Test func aBatteryThatFallsDuringTheUploadIsTheBatteryCheckInJSON() throws {
        let run = try FlashCLITests.flash(["--json"], sim: Self.fault)
        #expect(run.exitCode == 4, "\(run.output)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let objects = try run.stdoutLines.map(FlashCLITests.object)
        let result = try #require(objects.last)
        #expect(result["event"] as? String == "result" && result["exit_code"] as? Int == 4 && result["ok"] as? Bool == false)
        let failures = try #require(result["failures"] as? [[String: Any]])
        #expect(failures.count == 1)
        #expect(failures.first?["check"] as? String == "battery")
        #expect((failures.first?["message"] as? String)?.contains("fell to 12 % during the transfer") == true)
        let finished = objects.filter { $0["event"] as? String == "stage" && $0["status"] as? String == "finished" }
        #expect(finished.compactMap { $0["stage"] as? String } == ["verify-image", "connect", "read-device-state",
                                                                    "check-preconditions", "transfer"])
        #expect(!objects.contains { $0["event"] as? String == "activated" })
    }

    @Test func aLowerLimitLetsTheUpdateActivateAfterTheFall() throws {
        let run = try FlashCLITests.flash(["--min-battery", "10"], sim: Self.fault)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("marked for test"), "\(run.stdout)")
    }
}
