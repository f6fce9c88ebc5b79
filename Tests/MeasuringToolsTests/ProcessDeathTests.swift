@testable import dfu_faults
import ExitCodes
import Testing

private typealias ExitStatus = ExitCodes.ExitStatus

/// The process-death scenarios' parts that need no process: where a run kills `dfu`, when a batch
/// is killed, how a child's lines become an update's record, and how the invariants and the
/// verdict treat a killed update.
@Suite struct ProcessDeathTests {
    // MARK: - Kill points

    @Test func theKillPointIsRepeatableAndASharePointLiesBetweenFiveAndNinetyFivePercent() {
        for seed in UInt64(0) ..< 2000 {
            let point = KillPoint.draw(seed: seed)
            #expect(point == KillPoint.draw(seed: seed))
            if case .transfer(let share) = point { #expect(share >= 0.05 && share <= 0.95 + 1e-9, "seed \(seed): \(share)") }
            guard case .transfer(let only) = KillPoint.draw(seed: seed, transferOnly: true) else {
                Issue.record("seed \(seed): transferOnly drew \(KillPoint.draw(seed: seed, transferOnly: true))")
                continue
            }
            #expect(only == NordicFaults.share(seed: seed, index: 0))
        }
    }

    @Test func sixKillsInTenFallInTheTransferAndTheRestSpreadOverTheActivationSteps() {
        let points = (UInt64(0) ..< 10_000).map { KillPoint.draw(seed: $0) }
        let transfer = points.filter { if case .transfer = $0 { true } else { false } }.count
        #expect((5_800 ... 6_200).contains(transfer), "\(transfer)")
        for step in KillPoint.activationSteps {
            #expect((900 ... 1_100).contains(points.filter { $0 == step }.count), "\(step)")
        }
    }

    /// `--runs 20` runs seeds 1000…1009 of each flash scenario; `make test`'s `--runs 4` 1000 and 1001.
    @Test func theDefaultSeedsReachEveryActivationStepAndMakeTestsKillInBoth() {
        let points = (UInt64(1000) ... 1009).map { KillPoint.draw(seed: $0) }
        #expect(KillPoint.activationSteps.allSatisfy(points.contains))
        guard case .transfer = points[0] else {
            Issue.record("seed 1000: \(points[0])")
            return
        }
        #expect(KillPoint.activationSteps.contains(points[1]))
    }

    @Test func aKillPointIsWrittenAsTheFaultsColumnShowsIt() {
        #expect(KillPoint.transfer(share: 0.0815).text == "SIGKILL@8.15%")
        #expect(KillPoint.transfer(share: 0.05).text == "SIGKILL@5.00%")
        #expect(KillPoint.transfer(share: 0.9).text == "SIGKILL@90.00%")
        #expect(KillPoint.resetting.text == "SIGKILL@resetting")
    }

    // MARK: - The batch's kill

    @Test func theBatchDiesOnceOneDeviceIsDoneAndAnotherPassesItsShare() {
        let trigger = BatchKillTrigger(devices: 4, threshold: 100, imageBytes: 1000, killSwitch: KillSwitch())
        trigger.name(["udp:127.0.0.1:1", "udp:127.0.0.1:2", "udp:127.0.0.1:3", "udp:127.0.0.1:4"])
        trigger.sent(1000, to: 0)
        trigger.sent(150, to: 1)
        #expect(trigger.atKill == nil, "no device done yet")
        trigger.line(#"{"event":"device","schema":2,"line":2,"device":"udp:127.0.0.1:1","result":"ok"}"#)
        trigger.line(#"{"event":"device","schema":2,"line":3,"device":"udp:127.0.0.1:4","result":"failed"}"#)
        trigger.sent(1000, to: 2)
        #expect(trigger.atKill == nil, "a device sent whole is not mid-transfer")
        trigger.sent(50, to: 1)
        #expect(trigger.atKill == [.done, .midTransfer(sent: 200), .activating, .notStarted])
        trigger.sent(50, to: 1)
        #expect(trigger.atKill == [.done, .midTransfer(sent: 200), .activating, .notStarted], "fires once")
        #expect(trigger.sent == [1000, 250, 1000, 0])
        #expect(BatchKillRun.spreadProblem(trigger.atKill) == nil)
        #expect(BatchKillRun.describe(share: 0.1, trigger.atKill)
            == "SIGKILL@10.00% of a device's image: 1 done, 1 mid-transfer, 1 activating, 1 not started")

        #expect(trigger.pickedUp == 1)
        trigger.uploadStarted(on: 1)
        #expect(trigger.pickedUp == 1, "an upload begun before the kill is the killed batch's")
        trigger.killedBatchEnded()
        trigger.uploadStarted(on: 1)
        #expect(trigger.pickedUp == 0, "the rerun started device 2's upload over")
    }

    @Test func aKillWithoutDevicesDoneMidAndWaitingIsUnexpected() {
        #expect(BatchKillRun.spreadProblem(nil)?.hasPrefix("the batch was never killed") == true)
        #expect(BatchKillRun.spreadProblem([.done, .midTransfer(sent: 5), .done])
            == "the kill came at 2 done, 1 mid-transfer, 0 activating, 0 not started, not with devices done, mid-transfer and not started")
    }

    // MARK: - A child's record

    private func ended(_ lines: [String], exitCode: Int32? = 0, signal: Int32? = nil, killed: Bool = false,
                       hung: Bool = false, stderr: String = "") -> DFUChild.Ended {
        DFUChild.Ended(exitCode: exitCode, signal: signal, killedByUs: killed, hung: hung, lines: lines, stderr: stderr,
                       wallSeconds: 1)
    }

    private static let transfer = [
        #"{"event":"stage","schema":2,"stage":"transfer","status":"started"}"#,
        #"{"event":"progress","schema":2,"bytes":30000,"total":49816,"rate":0,"elapsed":0.05,"part":null,"resumed_from":28000}"#,
    ]

    @Test func aKilledChildIsAKilledUpdateWithTheStageItHadReached() {
        let record = ChildAttempt.record(ended(Self.transfer, exitCode: nil, signal: 9, killed: true), index: 1)
        #expect(record.killed && !record.hung && record.message == "killed (SIGKILL) in transfer")
        #expect(record.firstAcknowledged == 28000, "the first progress line's resumed_from")
        let batch = ChildAttempt.record(ended([], exitCode: nil, signal: 9, killed: true), index: 1)
        #expect(batch.message == "killed (SIGKILL)" && batch.lastStage == ChildAttempt.noStage)
    }

    @Test func anExitIsTheDocumentedStatusWithTheResultsError() {
        let lines = Self.transfer + [#"{"event":"result","schema":2,"command":"flash","ok":false,"exit_code":6,"error":"the link went"}"#]
        let record = ChildAttempt.record(ended(lines, exitCode: 6), index: 2)
        #expect(record.exitStatus == .transferInterrupted && record.message == "the link went" && !record.killed)
    }

    @Test func aCrashOrAnUndocumentedCodeIsAnInternalError() {
        let crashed = ChildAttempt.record(ended([], exitCode: nil, signal: 4, stderr: "Fatal error: Index out of range\n"), index: 2)
        #expect(crashed.exitStatus == .internalError && crashed.message == "ended by signal 4: Fatal error: Index out of range")
        let odd = ChildAttempt.record(ended([], exitCode: 42), index: 2)
        #expect(odd.exitStatus == .internalError && odd.message == "exit 42, not a documented code")
    }

    @Test func aResumeWithNothingToResumeIsSaidSo() {
        let line = #"{"event":"result","schema":2,"command":"resume","ok":true,"exit_code":0,"resumed":0,"error":null,"succeeded":0,"failed":0,"updates":[]}"#
        #expect(ChildAttempt.record(ended([line]), index: 2).message == ChildAttempt.nothingToResume)
    }

    // MARK: - Invariants and verdict

    private func attempt(_ status: ExitStatus, index: Int, killed: Bool = false, message: String = "") -> AttemptRecord {
        AttemptRecord(index: index, exitStatus: status, message: message, resumes: 0, firstAcknowledged: nil, hung: false,
                      lastStage: "transfer", killed: killed)
    }

    @Test func aKilledUpdateHasNoExitCodeButMustBeFinished() {
        let killed = attempt(.interrupted, index: 1, killed: true)
        let updated = DeviceFacts(image: .new, confirmed: true)
        let previous = DeviceFacts(image: .previous, confirmed: true)
        #expect(InvariantCheck.violations([killed, attempt(.success, index: 2)], device: updated, documented: []).isEmpty)
        #expect(InvariantCheck.violations([killed], device: previous, documented: []) == [.resumableFinished])
        #expect(InvariantCheck.violations([killed, attempt(.deviceUnreachable, index: 2)], device: previous, documented: [])
            == [.documentedExit, .resumableFinished])
    }

    @Test func theVerdictJudgesWhatFinishedTheKilledUpdate() {
        let killed = attempt(.interrupted, index: 1, killed: true)
        let nothing = attempt(.success, index: 2, message: ChildAttempt.nothingToResume)
        #expect(ProcessDeathVerdict.judge([killed, attempt(.success, index: 2)], expectation: .completes, device: .updated) == .completed)
        #expect(ProcessDeathVerdict.judge([killed, nothing], expectation: .completes, device: .keptPrevious(rejectedAtBoot: false))
            == .unexpected("killed in transfer, then exit 0, but the device runs its previous image, never refused the new one"))
        #expect(ProcessDeathVerdict.judge([attempt(.success, index: 1)], expectation: .completes, device: .updated)
            == .unexpected("the first dfu ended by itself (exit 0) before its kill point"))
        #expect(ProcessDeathVerdict.stage([killed]) == " in transfer")
    }
}
