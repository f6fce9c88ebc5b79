extension UpdatePlan {
    /// From MCUboot's image list for image index `image`: its slot 0 running the image (its
    /// SHA256 TLV), or its slot 1 holding it. Pure, so every case is tested without a device.
    static func decide(slotHash: [UInt8], state: ImageStateResponse, image: UInt64 = 0) -> UpdatePlan {
        if let running = state.slot(0, image: image), running.active, running.hash == slotHash {
            return .alreadyRunning(confirmed: running.confirmed)
        }
        if state.secondarySlotHolds(slotHash, image: image) {
            return .alreadyUploaded
        }
        return .upload
    }
}
