/// What the device's state says about this update before anything is sent, as Nordic's "validate"
/// step decides it (smp-mcuboot.md §4): nothing to do, nothing to upload, or upload. Each protocol
/// decides it from what its device reports; the procedure acts on it.
enum UpdatePlan: Sendable, Equatable {
    /// The device already runs this exact update. `confirmed`: it keeps it.
    case alreadyRunning(confirmed: Bool)
    /// The device already holds this exact update, ready to activate (an earlier run sent it).
    case alreadyUploaded
    /// Send it.
    case upload
}
