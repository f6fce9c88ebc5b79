import DFUCore
@testable import dfu
import ExitCodes
import Testing

/// Swift Testing has an `ExitStatus` of its own.
private typealias ExitStatus = ExitCodes.ExitStatus

/// How a batch's devices end: the terminal line of each result, the batch's one exit status, and
/// the decision about a device an earlier run finished.
@Suite struct BatchOutcomeTests {
    private static func report(_ result: BatchDeviceReport.Result, _ status: ExitStatus = .success) -> BatchDeviceReport {
        BatchDeviceReport(line: 2, device: "…:7A:01", fullDevice: "C2:11:40:55:7A:01", image: "app.bin", protocolName: "smp",
                          result: result, exitStatus: status, stage: "transfer", versionBefore: "1.0.0+0",
                          versionAfter: "1.1.0+0", duration: .seconds(1), bytes: 0, error: "why")
    }

    @Test func everyResultLeavesTheDeviceInOneColumn() {
        let starts = BatchDeviceReport.Result.allCases.map { result -> Int in
            let line = Self.report(result).terminalLine(deviceWidth: 8)
            return line.distance(from: line.startIndex, to: line.firstRange(of: "…:7A:01")?.lowerBound ?? line.startIndex)
        }
        #expect(Set(starts) == [12], "INTERRUPTED and NOT CHECKED fit their column: \(starts)")
        #expect(Self.report(.interrupted, .interrupted).terminalLine(deviceWidth: 8).hasPrefix("INTERRUPTED …:7A:01"))
    }

    @Test func theBatchExitsTwoOnlyWhenNothingRan() {
        func status(_ statuses: [ExitStatus]) -> ExitStatus {
            BatchExitStatus.of(statuses.map { Self.report($0 == .success ? .ok : .failed, $0) })
        }
        #expect(status([.usage, .postRebootCheckFailed]) == .imageInvalid, "a plan mistake ranks as a file's, above 8")
        #expect(status([.deviceRejected, .postRebootCheckFailed]) == .postRebootCheckFailed)
        #expect(status([.usage, .success]) == .imageInvalid, "a row refused at its turn while another ran")
        #expect(status([.usage, .deviceUnreachable]) == .imageInvalid)
        #expect(status([.usage, .usage]) == .usage, "nothing ran")
        #expect(status([.success, .success]) == .success)
        #expect(status([.usage, .interrupted]) == .interrupted)
        #expect(status([.deviceUnreachable, .preconditionNotMet, .transferInterrupted]) == .preconditionNotMet)
    }

    @Test func aDeviceDoneBeforeIsSkippedOnlyOnWhatItSaid() {
        let earlier = BatchJob.EarlierRun(versionAfter: "1.1.0+0")
        var unanswered = BatchDeviceProgress()
        unanswered.stage = .connect
        #expect(BatchDoneCheck.verdict(of: unanswered, failure: .deviceUnreachable, protocolName: .smp, earlier: earlier)
                == .notChecked)
        #expect(BatchDoneCheck.verdict(of: unanswered, failure: .authenticationFailed, protocolName: .smp, earlier: earlier)
                == .notChecked)
        #expect(BatchDoneCheck.verdict(of: unanswered, failure: .imageInvalid, protocolName: .smp, earlier: earlier) == .flash,
                "the file, not the device: the real run says so")

        var answered = BatchDeviceProgress()
        answered.deviceStateRead = true
        answered.versionBefore = "1.1.0+0"
        answered.dryRunPlan = .upload(bytes: 100)
        #expect(BatchDoneCheck.verdict(of: answered, failure: nil, protocolName: .smp, earlier: earlier) == .flash,
                "an SMP device is skipped on its image hash, never on its version alone")
        if case .runsIt = BatchDoneCheck.verdict(of: answered, failure: nil, protocolName: .nordic, earlier: earlier) {} else {
            Issue.record("a Nordic application reporting the version the earlier run left is skipped")
        }
        answered.versionBefore = "1.0.0+0"
        #expect(BatchDoneCheck.verdict(of: answered, failure: nil, protocolName: .nordic, earlier: earlier) == .flash)
        answered.dryRunPlan = .nothing
        if case .runsIt = BatchDoneCheck.verdict(of: answered, failure: nil, protocolName: .smp, earlier: earlier) {} else {
            Issue.record("the device's own check found the image running")
        }
        answered.dryRunPlan = .confirmOnly
        #expect(BatchDoneCheck.verdict(of: answered, failure: nil, protocolName: .smp, earlier: earlier) == .flash,
                "running it unconfirmed: the real run confirms it")
    }
}
