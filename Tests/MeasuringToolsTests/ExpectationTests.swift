@testable import dfu_faults
import ExitCodes
import Testing

private typealias ExitStatus = ExitCodes.ExitStatus

/// How a run of a scenario that must fail, then complete on a rerun, is judged.
@Suite struct ExpectationTests {
    private func attempt(_ status: ExitStatus, index: Int) -> AttemptRecord {
        AttemptRecord(index: index, exitStatus: status, message: "", resumes: 0, firstAcknowledged: nil, hung: false,
                      lastStage: "activate")
    }

    private let expectation = Expectation.failsThenRerunCompletes(.preconditionNotMet)
    private var runs: [AttemptRecord] { [attempt(.preconditionNotMet, index: 1), attempt(.success, index: 2)] }

    @Test func aFailureThatLeftTheDeviceAsItWasThenARerunThatCompletesIsExpected() {
        let outcome = expectation.judge(runs, bootsAfterFirst: 0, device: .updated,
                                        afterFirst: .keptPrevious(rejectedAtBoot: false))
        #expect(outcome == .completedAfterFailure(.preconditionNotMet))
    }

    /// "Without activating" is read from the device: an image marked before the failure is not it.
    @Test func aFailureAfterWhichSomethingIsPendingIsUnexpected() {
        let outcome = expectation.judge(runs, bootsAfterFirst: 0, device: .updated,
                                        afterFirst: .other("runs 1.0.0+0 (next boot: test)"))
        #expect(outcome.unexpectedReason?.contains("something was activated") == true, "\(outcome)")
    }

    @Test func aFailureAfterWhichTheDeviceResetIsUnexpected() {
        let outcome = expectation.judge(runs, bootsAfterFirst: 1, device: .updated, afterFirst: .keptPrevious(rejectedAtBoot: false))
        #expect(outcome.unexpectedReason != nil)
    }
}
