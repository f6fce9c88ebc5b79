extension UpdatePlan {
    /// From MCUboot's image list: slot 0 running the image (its SHA256 TLV), or slot 1 holding it.
    /// Pure, so every case is tested without a device.
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
