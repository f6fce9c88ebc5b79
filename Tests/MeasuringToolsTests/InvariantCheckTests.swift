@testable import dfu_faults
import ExitCodes
import Testing

private typealias ExitStatus = ExitCodes.ExitStatus

/// The invariants the fault campaign checks after every run, on made-up runs.
@Suite struct InvariantCheckTests {
    private func attempt(_ status: ExitStatus, hung: Bool = false, index: Int = 1) -> AttemptRecord {
        AttemptRecord(index: index, exitStatus: status, message: "", resumes: 0, firstAcknowledged: nil, hung: hung, lastStage: "transfer")
    }

    private let updated = DeviceFacts(image: .new, confirmed: true)
    private let documented: Set<ExitStatus> = [.deviceRejected, .transferInterrupted]

    @Test func aCompletedRunKeepsEveryInvariant() {
        #expect(InvariantCheck.violations([attempt(.success)], device: updated, documented: documented).isEmpty)
    }

    @Test func exitZeroWithAnUnconfirmedNewImageBreaksTwo() {
        let device = DeviceFacts(image: .new, confirmed: false)
        #expect(InvariantCheck.violations([attempt(.success)], device: device, documented: documented)
            == [.bootableConfirmed, .successRunsNew])
    }

    @Test func aDeviceWithNothingToBootOrAThirdImageBreaksThem() {
        let none = DeviceFacts(image: .none("no valid image in slot 0"), confirmed: true)
        #expect(InvariantCheck.violations([attempt(.deviceRejected)], device: none, documented: documented)
            == [.bootableConfirmed, .oldOrNew])
        let other = DeviceFacts(image: .other("0.9.0"), confirmed: true)
        #expect(InvariantCheck.violations([attempt(.success)], device: other, documented: documented) == [.oldOrNew, .successRunsNew])
    }

    @Test func anUndocumentedExitOrAHangBreaksDocumentedExit() {
        let previous = DeviceFacts(image: .previous, confirmed: true)
        #expect(InvariantCheck.violations([attempt(.postRebootCheckFailed)], device: previous, documented: documented) == [.documentedExit])
        #expect(InvariantCheck.violations([attempt(.internalError, hung: true)], device: previous, documented: documented)
            == [.documentedExit])
        #expect(InvariantCheck.violations([attempt(.deviceRejected)], device: previous, documented: documented).isEmpty)
    }

    @Test func exitSixMustBeFinishedByTheRerun() {
        let previous = DeviceFacts(image: .previous, confirmed: true)
        #expect(InvariantCheck.violations([attempt(.transferInterrupted)], device: previous, documented: documented)
            == [.resumableFinished])
        #expect(InvariantCheck.violations([attempt(.transferInterrupted), attempt(.success, index: 2)], device: updated,
                                          documented: documented).isEmpty)
    }

    @Test func everyScenarioDocumentsExitSixAndItsOwnFailure() {
        #expect(Expectation.completes.documentedFailures == [.transferInterrupted])
        #expect(Expectation.rejectedAtBoot(.postRebootCheckFailed).documentedFailures == [.postRebootCheckFailed, .transferInterrupted])
        #expect(Expectation.completes.rerunsAfter(.transferInterrupted))
        #expect(!Expectation.completes.rerunsAfter(.deviceRejected))
    }

    @Test func theLastLineCountsEveryRunAndEveryViolation() {
        func record(_ violations: [Invariant]) -> RunRecord {
            RunRecord(run: 1, seed: 1, device: "sim:", faults: "none", attempts: [], uploadedBytes: 0, imageBytes: 0,
                      modelSeconds: 0, wallSeconds: 0, outcome: .completed, violations: violations)
        }
        let smp = ScenarioSummary(scenario: Scenario.smpCatalogue[0], records: [record([]), record([.oldOrNew, .successRunsNew])])
        let nordic = ScenarioSummary(scenario: Scenario.nordicCatalogue[0], records: [record([.oldOrNew])])
        let totals = CampaignTotals([smp, nordic])
        #expect(totals.lastLine == "faults: 3 runs, 3 invariant violations")
        #expect(totals.byInvariant.first { $0.invariant == .oldOrNew }?.count == 2)
        #expect(totals.runsByProtocol.map(\.name) == ["SMP", "Nordic"])
    }
}
