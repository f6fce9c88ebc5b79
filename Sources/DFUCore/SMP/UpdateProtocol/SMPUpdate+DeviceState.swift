/// The update held against MCUboot's image list: for each image index, which direct-XIP variant
/// goes to the free slot, and whether the device already runs or holds the image. Pure, so every
/// case is tested without a device.
extension SMPUpdate {
    /// Settles every image against `state`; `mode` is the bootloader's, when it says.
    mutating func settle(against state: ImageStateResponse, mode: MCUbootMode? = nil) throws(DFUError) {
        for position in images.indices {
            try images[position].settle(against: state, mode: mode)
        }
    }

    /// The whole update's plan: nothing to do only when every image runs; nothing to upload when
    /// every image runs or waits in its slot.
    var plan: UpdatePlan {
        let plans = images.map(\.plan)
        if plans.allSatisfy({ if case .alreadyRunning = $0 { true } else { false } }) {
            return .alreadyRunning(confirmed: plans.allSatisfy { $0 == .alreadyRunning(confirmed: true) })
        }
        return plans.contains(.upload) ? .upload : .alreadyUploaded
    }
}

extension SMPUpdateImage {
    mutating func settle(against state: ImageStateResponse, mode: MCUbootMode?) throws(DFUError) {
        runningBefore = state.running(image: index)
        guard isDirectXIP else {
            plan = .decide(slotHash: image.slotHash, installedHash: image.installedHash, state: state, image: index)
            return
        }
        // A device that says it swaps or overwrites would run a variant linked for the secondary
        // slot from the primary; one that does not say is taken to be built as the zip was.
        if let mode, ![.directXIP, .directXIPWithRevert, .unknown].contains(mode) {
            throw .precondition([.inImage(name, .directXIPBuildOnOtherMode(mode: mode.description))])
        }
        // Direct-XIP: MCUboot runs the image in place, from either slot; img_mgmt uploads to the
        // other one (zephyr_img_mgmt.c, the opposite of the active slot), so the variant linked for
        // that slot is sent.
        let running = state.images.first { $0.active && ($0.image ?? 0) == index }
        if let running, let variant = variants.first(where: { $0.image.slotHash == running.hash }) {
            image = variant.image
            plan = .alreadyRunning(confirmed: running.confirmed)
            return
        }
        let freeSlot = running?.slot == 1 ? 0 : 1
        guard let variant = variants.first(where: { $0.slot == freeSlot }) else {
            throw .precondition([.inImage(name, .directXIPVariantMissing(freeSlot: freeSlot))])
        }
        image = variant.image
        plan = state.slot(UInt64(freeSlot), image: index)?.hash == image.slotHash ? .alreadyUploaded : .upload
    }
}
