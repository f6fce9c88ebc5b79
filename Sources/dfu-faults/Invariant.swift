/// What must hold after every run of every scenario, whatever the fault: checked from the device's
/// own state and the exit codes, counted per run and in the campaign's last line. A run can break
/// several at once; each counts.
enum Invariant: String, Sendable, CaseIterable, Hashable {
    /// The device ends with a valid image to boot (an SMP device: slot 0; an nRF52: its
    /// application, not its bootloader) and nothing pending for its next boot (confirmed).
    case bootableConfirmed = "bootable-confirmed"
    /// It runs the image it started with or the new one, never anything else.
    case oldOrNew = "old-or-new"
    /// When the last update reported success, the device runs the new image, confirmed.
    case successRunsNew = "success-runs-new"
    /// Every update that failed ended with an exit code the scenario documents, or with exit 6,
    /// which any scenario may end with as long as running again finishes it (a hang has no code).
    case documentedExit = "documented-exit"
    /// An update that ended with exit 6 ("run the same command again"), or whose `dfu` was killed,
    /// was finished by running it again (or by `dfu resume`).
    case resumableFinished = "resumable-finished"

    /// For the report's legend.
    var text: String {
        switch self {
        case .bootableConfirmed: return "the device has a bootable image, confirmed"
        case .oldOrNew: return "it runs the old image or the new one, nothing else"
        case .successRunsNew: return "after exit 0 it runs the new image, confirmed"
        case .documentedExit: return "a failed update ends with the scenario's documented exit code (or 6)"
        case .resumableFinished: return "an exit 6 or a killed dfu is finished by running the update again"
        }
    }
}
