extension UpdatePlan {
    /// From MCUboot's image list for image index `image`: its active slot running the image (its
    /// installed hash: the SHA256 TLV, or DECOMP_SHA for a compressed image), or its slot 1
    /// holding it in the other slot (the file's SHA256 TLV). Pure, so every case is tested without a device.
    static func decide(slotHash: [UInt8], installedHash: [UInt8]? = nil, state: ImageStateResponse,
                       image: UInt64 = 0) -> UpdatePlan {
        // The active slot: 0 in swap modes, either one where the slots are equal (direct-XIP, RAM load).
        let running = state.images.first { $0.active && ($0.image ?? 0) == image }
        if let running, running.hash == (installedHash ?? slotHash) {
            return .alreadyRunning(confirmed: running.confirmed)
        }
        let other: UInt64 = running?.slot == 1 ? 0 : 1
        if state.slot(other, image: image)?.hash == slotHash {
            return .alreadyUploaded
        }
        return .upload
    }
}
