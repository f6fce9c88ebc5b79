/// What the device's image list says about this image before anything is sent, as Nordic's
/// "validate" step decides it (smp-mcuboot.md §4): nothing to do, nothing to upload, or upload.
/// Pure, so every case is tested without a device.
enum UpdatePlan: Sendable, Equatable {
    /// Slot 0 already runs this exact image (its SHA256 TLV). `confirmed`: the device keeps it.
    case alreadyRunning(confirmed: Bool)
    /// Slot 1 already holds this exact image (an earlier run uploaded it): skip the upload.
    case alreadyUploaded
    /// Upload it.
    case upload

    static func decide(slotHash: [UInt8], state: ImageStateResponse) -> UpdatePlan {
        if let running = state.slot(0), running.active, running.hash == slotHash {
            return .alreadyRunning(confirmed: running.confirmed)
        }
        if state.secondarySlotHolds(slotHash) {
            return .alreadyUploaded
        }
        return .upload
    }
}
