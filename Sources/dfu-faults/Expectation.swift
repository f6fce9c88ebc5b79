import DFUCore
import ExitCodes

/// How a run of a scenario must end. Anything else is an unexpected outcome: the campaign reports
/// it with its seed and exits non-zero.
enum Expectation: Sendable {
    /// One update, exit 0, and the device runs the new image, confirmed.
    case completes
    /// The first update stops with this exit status before activating anything (the device never
    /// reset); running the update again — as a user would — completes it.
    case failsThenRerunCompletes(ExitStatus)
    /// The update ends with this exit status after the test boot, and the device runs its previous
    /// image again because its bootloader refused the new one.
    case rejectedAtBoot(ExitStatus)
    /// The first update stops with this exit status because the device itself was interrupted (it
    /// may have reset); running the update again completes it.
    case interruptedThenRerunCompletes(ExitStatus)
    /// The update ends with this exit status before any firmware is written (the bootloader refused
    /// the init packet), and the device keeps its previous application.
    case refusedBeforeTransfer(ExitStatus)

    /// Whether a run whose first update ended with `status` gets a second one: when the scenario
    /// expects that status, and after any exit 6, which says "run the same command again" (the
    /// `resumable-finished` invariant checks that doing so finishes the update).
    func rerunsAfter(_ status: ExitStatus) -> Bool {
        if status == .transferInterrupted { return true }
        switch self {
        case .failsThenRerunCompletes(let expected), .interruptedThenRerunCompletes(let expected): return status == expected
        case .completes, .rejectedAtBoot, .refusedBeforeTransfer: return false
        }
    }

    /// The exit codes a failed update of this scenario may end with (`documented-exit`): the one it
    /// expects, and 6, resumable by running again.
    var documentedFailures: Set<ExitStatus> {
        switch self {
        case .completes: return [.transferInterrupted]
        case .failsThenRerunCompletes(let status), .rejectedAtBoot(let status), .interruptedThenRerunCompletes(let status),
             .refusedBeforeTransfer(let status):
            return [status, .transferInterrupted]
        }
    }

    /// Whether a run of this scenario is meant to end with a rerun that completes.
    var endsWithRerun: Bool {
        switch self {
        case .failsThenRerunCompletes, .interruptedThenRerunCompletes: return true
        case .completes, .rejectedAtBoot, .refusedBeforeTransfer: return false
        }
    }

    /// For the report: `completes`, `exit 7, rerun completes`, `exit 8, device keeps its image`.
    var text: String {
        switch self {
        case .completes: return "completes"
        case .failsThenRerunCompletes(let status): return "exit \(status.rawValue), rerun completes"
        case .rejectedAtBoot(let status): return "exit \(status.rawValue), device keeps its image"
        case .interruptedThenRerunCompletes(let status): return "exit \(status.rawValue), rerun completes"
        case .refusedBeforeTransfer(let status): return "exit \(status.rawValue), device keeps its application"
        }
    }

    /// The verdict on one run from what each update returned and the device's state at the end.
    /// `bootsAfterFirst`: how many times the device had reset when the first update ended;
    /// `afterFirst`: what it ran then, where known (a failure "without activating" must leave it on
    /// its previous image with nothing pending).
    func judge(_ attempts: [AttemptRecord], bootsAfterFirst: Int, device: DeviceVerdict,
               afterFirst: DeviceVerdict? = nil) -> RunOutcome {
        guard let first = attempts.first else { return .unexpected("no update ran") }
        if let hung = attempts.first(where: \.hung) {
            return .unexpected("update \(hung.index) still running after the hang guard (\(hung.lastStage))")
        }
        switch self {
        case .completes:
            guard attempts.count == 1, first.exitStatus == .success else {
                return .unexpected("exit \(first.exitStatus.rawValue): \(first.message)")
            }
            guard device == .updated else { return .unexpected("exit 0, but the device \(device.text)") }
            return .completed
        case .failsThenRerunCompletes(let expected), .interruptedThenRerunCompletes(let expected):
            guard first.exitStatus == expected else {
                return .unexpected("exit \(first.exitStatus.rawValue) (expected \(expected.rawValue)): \(first.message)")
            }
            if case .failsThenRerunCompletes = self, bootsAfterFirst != 0 {
                return .unexpected("exit \(expected.rawValue), but the device reset \(bootsAfterFirst) time(s) before the rerun")
            }
            if case .failsThenRerunCompletes = self, let afterFirst, afterFirst != .keptPrevious(rejectedAtBoot: false) {
                return .unexpected("exit \(expected.rawValue), but then the device \(afterFirst.text) (something was activated)")
            }
            guard attempts.count == 2 else { return .unexpected("no rerun after exit \(expected.rawValue)") }
            let rerun = attempts[1]
            guard rerun.exitStatus == .success else {
                return .unexpected("exit \(expected.rawValue), then the rerun exit \(rerun.exitStatus.rawValue): \(rerun.message)")
            }
            guard device == .updated else { return .unexpected("the rerun exit 0, but the device \(device.text)") }
            return .completedAfterFailure(expected)
        case .rejectedAtBoot(let expected):
            guard attempts.count == 1, first.exitStatus == expected else {
                return .unexpected("exit \(first.exitStatus.rawValue) (expected \(expected.rawValue)): \(first.message)")
            }
            guard device == .keptPrevious(rejectedAtBoot: true) else {
                return .unexpected("exit \(expected.rawValue), but the device \(device.text)")
            }
            return .expectedFailure(expected)
        case .refusedBeforeTransfer(let expected):
            guard attempts.count == 1, first.exitStatus == expected else {
                return .unexpected("exit \(first.exitStatus.rawValue) (expected \(expected.rawValue)): \(first.message)")
            }
            guard device == .keptPrevious(rejectedAtBoot: false) else {
                return .unexpected("exit \(expected.rawValue), but the device \(device.text)")
            }
            return .expectedFailure(expected)
        }
    }
}
