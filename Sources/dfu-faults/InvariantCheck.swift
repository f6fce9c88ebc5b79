import ExitCodes

/// Checks the `Invariant`s on one run: what each update returned, the device's state at the end,
/// and the exit codes the scenario documents.
enum InvariantCheck {
    static func violations(_ attempts: [AttemptRecord], device: DeviceFacts, documented: Set<ExitStatus>) -> [Invariant] {
        var broken: [Invariant] = []
        let bootable: Bool
        if case .none = device.image { bootable = false } else { bootable = true }
        if !bootable || !device.confirmed { broken.append(.bootableConfirmed) }
        switch device.image {
        case .previous, .new: break
        case .other, .none: broken.append(.oldOrNew)
        }
        if let last = attempts.last, !last.hung, last.exitStatus == .success, !(device.image == .new && device.confirmed) {
            broken.append(.successRunsNew)
        }
        // A killed update has no exit status: the kill is the scenario's interruption.
        if attempts.contains(where: { !$0.killed && ($0.hung || ($0.exitStatus != .success && !documented.contains($0.exitStatus))) }) {
            broken.append(.documentedExit)
        }
        if let interrupted = attempts.firstIndex(where: { $0.killed || (!$0.hung && $0.exitStatus == .transferInterrupted) }) {
            let later = attempts.suffix(from: interrupted + 1)
            if !later.contains(where: { !$0.hung && $0.exitStatus == .success }) { broken.append(.resumableFinished) }
        }
        return broken
    }
}
