/// What the read-device-state stage learned.
struct SessionState: Sendable {
    var facts: DeviceFacts
    var plan: UpdatePlan
    /// Said before a test boot when the device cannot roll one back (its bootloader's mode).
    var revertWarning: String?
}
