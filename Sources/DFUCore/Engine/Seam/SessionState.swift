/// What the read-device-state stage learned.
struct SessionState: Sendable {
    var facts: DeviceFacts
    var plan: UpdatePlan
    /// Said before a test boot when the device cannot roll one back (its bootloader's mode).
    var revertWarning: String?
    /// The index in `parts` the transfer starts at: past 0 when the device says an earlier run
    /// already took the parts before it (resume across runs).
    var firstPart = 0
    /// The images the check-preconditions stage holds against the device, each with its own image
    /// index's facts (an update of several MCUboot images); nil: the update's version and size
    /// against `facts`.
    var imageChecks: [Preconditions.ImageCheck]?
}
