@testable import dfu_faults
import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

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

    /// `make test`'s two seeds kill the finisher once in the transfer and once in the activation;
    /// the ten of `--runs 20` reach every activation step.
    @Test func theFinishersKillPointIsDrawnApartFromTheFirst() {
        let points = (UInt64(1000) ... 1009).map { KillPoint.drawFinisher(seed: $0) }
        #expect(KillPoint.activationSteps.allSatisfy(points.contains))
        guard case .transfer(let share) = points[0] else {
            Issue.record("seed 1000: \(points[0])")
            return
        }
        #expect(share == NordicFaults.share(seed: 1000, index: 1))
        #expect(KillPoint.activationSteps.contains(points[1]))
        guard case .transfer = KillPoint.drawFinisher(seed: 1001, transferOnly: true) else {
            Issue.record("transferOnly drew an activation step")
            return
        }
    }

    @Test func aNordicKillOverBLEIsAShareOrTheLastExecuteAndMakeTestsRunsReachBoth() {
        var lastExecutes = 0
        for seed in UInt64(1000) ..< 3000 {
            let point = KillPoint.drawNordic(seed: seed)
            if point == .lastExecute { lastExecutes += 1 } else if case .transfer = point {} else { Issue.record("seed \(seed): \(point)") }
        }
        #expect(lastExecutes > 600 && lastExecutes < 1000, "about 4 in 10: \(lastExecutes)")
        #expect(KillPoint.drawNordic(seed: 1001) == .lastExecute && KillPoint.drawNordic(seed: 1000) != .lastExecute)
        #expect(KillPoint.lastExecute.text == "SIGKILL@last-execute")
    }

    @Test func aShareMovedIntoARangeKeepsItsPlaceInIt() {
        for seed in UInt64(0) ..< 500 {
            let share = KillPoint.share(seed: seed, index: 0, within: 0.05 ... 0.60)
            #expect(share >= 0.05 - 1e-9 && share <= 0.60 + 1e-9, "seed \(seed): \(share)")
        }
        #expect(abs(KillPoint.share(seed: 1000, index: 0, within: 0.05 ... 0.80) - (0.05 + (0.9230 - 0.05) / 0.9 * 0.75)) < 1e-9)
    }

    @Test func eachPlanKillsAndFaultsTheDeviceAsItsScenarioSays() {
        for seed in UInt64(1000) ..< 1100 {
            #expect(FlashDeathPlan(.nothing, seed: seed) == FlashDeathPlan(.nothing, seed: seed))
            #expect(FlashDeathPlan(.nothing, seed: seed).kills == [KillPoint.draw(seed: seed)])

            let twice = FlashDeathPlan(.finisherKilled, seed: seed)
            #expect(twice.kills.count == 2 && twice.deviceFault == nil)
            guard case .transfer(let first) = twice.kills[0] else {
                Issue.record("seed \(seed): \(twice.kills)")
                continue
            }
            #expect(first <= 0.80 + 1e-9, "the dying dfu's window cannot end the upload")
            let nordic = FlashDeathPlan(.finisherKilled, seed: seed, transferOnly: true)
            #expect(nordic.kills.allSatisfy { if case .transfer = $0 { true } else { false } })

            #expect(FlashDeathPlan(.deviceResetsAtKill, seed: seed) == FlashDeathPlan(.deviceResetsAtKill, seed: 0))
            #expect(FlashDeathPlan(.deviceResetsAtKill, seed: seed).kills == [.resetting])
            #expect(FlashDeathPlan(.deviceResetsAtKill, seed: seed).deviceFault == "reboot@random")

            let later = FlashDeathPlan(.deviceResetsInFinish, seed: seed)
            guard case .transfer(let kill) = later.kills.first, let fault = later.deviceFault, fault.hasPrefix("reboot@"),
                  let reset = Double(fault.dropFirst("reboot@".count).dropLast()) else {
                Issue.record("seed \(seed): \(later)")
                continue
            }
            #expect(kill <= 0.60 + 1e-9)
            #expect(reset / 100 >= kill + 0.15 - 0.0001 && reset / 100 <= 0.95 + 1e-9, "seed \(seed): kill \(kill), \(fault)")
        }
    }

    // MARK: - The kill schedule

    @Test func aLaterTransferKillIsAShareOfWhatIsLeft() {
        #expect(KillSchedule.threshold(share: 0.5, sent: 0, totalBytes: 1000, uncounted: 0) == 500)
        #expect(KillSchedule.threshold(share: 0.5, sent: 600, totalBytes: 1000, uncounted: 0) == 800)
        #expect(KillSchedule.threshold(share: 0.5, sent: 0, totalBytes: 1141, uncounted: 141) == 641, "Nordic: a share of the firmware")
        #expect(KillSchedule.threshold(share: 0.05, sent: 1000, totalBytes: 1000, uncounted: 0) == 1001, "at least one byte on")
    }

    @Test func aKillFiresOnlyWhileItsChildIsAimedAt() {
        let schedule = KillSchedule([.transfer(share: 0.5), .uploaded], totalBytes: 1000)
        schedule.sent(600)
        #expect(!schedule.hasFired(0), "nothing is aimed yet")
        schedule.aim(0, at: DFUChild())
        schedule.sent(199)
        #expect(!schedule.hasFired(0), "a share of what is left when aimed: half of the 400 left after 600")
        schedule.sent(1)
        #expect(schedule.hasFired(0))
        schedule.disarm()
        schedule.observe(.uploadCompleted)
        #expect(!schedule.hasFired(1), "the killed run's last requests kill nobody")
        schedule.aim(1, at: DFUChild())
        schedule.observe(.uploadCompleted)
        #expect(schedule.hasFired(1))
    }

    @Test func theMarkAndTheConfirmationAreTheImageStateWritesBeforeAndAfterAReset() throws {
        let state = try SMPHeader(decoding: [0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
        #expect(KillSchedule.isImageStateWrite(state))
        #expect(KillSchedule.reaches(.marking, .request(state), afterReset: false))
        #expect(!KillSchedule.reaches(.marking, .request(state), afterReset: true))
        #expect(KillSchedule.reaches(.confirming, .request(state), afterReset: true))
        #expect(!KillSchedule.reaches(.transfer(share: 0.5), .uploadCompleted, afterReset: false))
        #expect(DeviceStep(UDPServerEvent.received(size: 8, from: .loopbackV4(port: 1), header: state)) == .request(state),
                "over UDP a datagram's header")
        #expect(DeviceStep(UDPServerEvent.received(size: 8, from: .loopbackV4(port: 1), header: nil)) == nil)
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
        #expect(BatchKill.spreadProblem(trigger.atKill) == nil)
        #expect(BatchKill.describe(share: 0.1, trigger.atKill)
            == "SIGKILL@10.00% of a device's image: 1 done, 1 mid-transfer, 1 activating, 1 not started")

        #expect(trigger.pickedUp == 1)
        trigger.uploadStarted(on: 1)
        #expect(trigger.pickedUp == 1, "an upload begun before the kill is the killed batch's")
        trigger.killedBatchEnded()
        trigger.uploadStarted(on: 1)
        #expect(trigger.pickedUp == 0, "the rerun started device 2's upload over")
    }

    @Test func theRerunDiesOnceTheDevicesWereSentItsShareMore() {
        let rerunKill = KillSwitch()
        let trigger = BatchKillTrigger(devices: 3, threshold: 100, imageBytes: 1000, killSwitch: KillSwitch(),
                                       rerunKill: (rerunKill, 300))
        trigger.name(["udp:127.0.0.1:1", "udp:127.0.0.1:2", "udp:127.0.0.1:3"])
        trigger.sent(1000, to: 0)
        trigger.line(#"{"event":"device","schema":2,"line":2,"device":"udp:127.0.0.1:1","result":"ok"}"#)
        trigger.sent(400, to: 1)
        #expect(trigger.atKill == [.done, .midTransfer(sent: 400), .notStarted])
        #expect(!trigger.rerunKillFired, "the killed batch's bytes count for nothing towards the rerun's kill")
        trigger.killedBatchEnded()
        trigger.sent(200, to: 1)
        trigger.sent(99, to: 2)
        #expect(!trigger.rerunKillFired)
        trigger.sent(1, to: 2)
        #expect(trigger.rerunKillFired && rerunKill.hasFired)
        #expect(trigger.atKill == [.done, .midTransfer(sent: 400), .notStarted], "the first kill's picture stays")
    }

    @Test func aSwitchFiredBeforeItsChildWasAimedAtKillsItWhenItIs() async throws {
        let killSwitch = KillSwitch()
        killSwitch.fire()
        #expect(killSwitch.hasFired)
        let child = DFUChild()
        let ended = try await child.run("/bin/sleep", ["20"], environment: [:], directory: "/tmp", hangGuard: .seconds(30),
                                        started: { killSwitch.aim(at: child) })
        #expect(ended.killedByUs, "\(ended)")
    }

    @Test func aKillWithoutDevicesDoneMidAndWaitingIsUnexpected() {
        #expect(BatchKill.spreadProblem(nil)?.hasPrefix("the batch was never killed") == true)
        #expect(BatchKill.spreadProblem([.done, .midTransfer(sent: 5), .done])
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

    @Test func withTwoKillsBothMustComeAndTheThirdRunFinishes() {
        let killed = attempt(.interrupted, index: 1, killed: true)
        let resumeKilled = attempt(.interrupted, index: 2, killed: true)
        let finished = attempt(.success, index: 3)
        #expect(ProcessDeathVerdict.judge([killed, resumeKilled, finished], kills: 2, expectation: .completes, device: .updated)
            == .completed)
        #expect(ProcessDeathVerdict.judge([killed, attempt(.success, index: 2)], kills: 2, expectation: .completes, device: .updated)
            == .unexpected("dfu 2 ended by itself (exit 0) before its kill point"))
        #expect(ProcessDeathVerdict.judge([killed, resumeKilled, attempt(.deviceUnreachable, index: 3, message: "gone")], kills: 2,
                                          expectation: .completes, device: .keptPrevious(rejectedAtBoot: false))
            == .unexpected("killed in transfer, then in transfer, then exit 5: gone"))
        #expect(ProcessDeathVerdict.kills([.transfer(share: 0.5), .transfer(share: 0.25)], [killed, resumeKilled, finished])
            == "SIGKILL@50.00% in transfer, then SIGKILL@25.00% of the rest in transfer")
        #expect(ProcessDeathVerdict.kills([.transfer(share: 0.5), .uploaded], [killed, attempt(.success, index: 2)])
            == "SIGKILL@50.00% in transfer, then SIGKILL@uploaded (not reached)")
        #expect(InvariantCheck.violations([killed, resumeKilled, finished], device: DeviceFacts(image: .new, confirmed: true),
                                          documented: []).isEmpty)
    }
}
