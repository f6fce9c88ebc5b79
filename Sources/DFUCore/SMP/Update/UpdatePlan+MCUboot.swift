extension UpdatePlan {
    /// From MCUboot's image list for image index `image`: its slot 0 running the image (its
    /// installed hash: the SHA256 TLV, or DECOMP_SHA for a compressed image), or its slot 1
    /// holding it (the file's SHA256 TLV). Pure, so every case is tested without a device.
    static func decide(slotHash: [UInt8], installedHash: [UInt8]? = nil, state: ImageStateResponse,
                       image: UInt64 = 0) -> UpdatePlan {
        if let running = state.slot(0, image: image), running.active, running.hash == (installedHash ?? slotHash) {
            return .alreadyRunning(confirmed: running.confirmed)
        }
        if state.secondarySlotHolds(slotHash, image: image) {
            return .alreadyUploaded
        }
        return .upload
    }
}
