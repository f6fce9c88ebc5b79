/// The update held against MCUboot's list in serial recovery, where every image goes straight into
/// its index's primary slot: the slot MCUboot boots. Pure, so every case is tested without a device.
extension SMPUpdate {
    /// Every image is uploaded (MCUboot keeps no upload session to resume, and a primary slot that
    /// already holds the image costs one upload, not a wrong boot); a direct-XIP build sends the
    /// variant linked for the primary slot. What the primary slot held before is kept to name it.
    mutating func settleForRecovery(against state: ImageStateResponse) throws(DFUError) {
        for position in images.indices {
            try images[position].settleForRecovery(against: state)
        }
    }
}

extension SMPUpdateImage {
    mutating func settleForRecovery(against state: ImageStateResponse) throws(DFUError) {
        runningBefore = state.slot(0, image: index)
        plan = .upload
        guard isDirectXIP else { return }
        guard let variant = variants.first(where: { $0.slot == 0 }) else {
            throw .precondition([.inImage(name, .directXIPVariantMissing(freeSlot: 0))])
        }
        image = variant.image
    }
}
