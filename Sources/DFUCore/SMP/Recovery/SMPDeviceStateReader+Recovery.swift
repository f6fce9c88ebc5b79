/// The read-device-state stage in MCUboot's serial recovery: its image list (the images that
/// validate) and, when it answers slot info (`MCUBOOT_SERIAL_IMG_GRP_SLOT_INFO`), the primary
/// slot's size. Nothing else is asked: the bootloader answers every other command "not supported".
extension SMPDeviceStateReader {
    func readRecoveryState(_ negotiated: Negotiated, image index: UInt64 = 0) async throws(DFUError) -> SMPDeviceSnapshot {
        try await againAfterLinkLoss { () async throws(DFUError) in try await readRecoveryStateOnce(negotiated, image: index) }
    }

    private func readRecoveryStateOnce(_ negotiated: Negotiated, image index: UInt64) async throws(DFUError) -> SMPDeviceSnapshot {
        var facts = DeviceFacts(bufferSize: negotiated.bufferSize, bufferCount: negotiated.bufferCount)
        let images: ImageStateResponse
        switch await request(ImageStateReadRequest()) {
        case .success(let state): images = state
        case .failure(let error): throw await failure("the image list request", error)
        }
        if images.lister == .application {
            throw .deviceRejected("\(context.device) answers as a Zephyr application (its image list carries splitStatus), "
                                  + "not as MCUboot's serial recovery. Nothing was sent: leave ',recovery' out to update "
                                  + "through the application, or add --enter-recovery to reset it into recovery first.")
        }
        // What MCUboot would boot now: the primary slot, when it validates.
        let primary = images.slot(0, image: index)
        facts.runningVersion = primary?.imageVersion
        facts.runningHash = primary.map(\.hash).flatMap { $0.isEmpty ? nil : $0 }
        facts.bootloaderMode = DeviceFacts.serialRecoveryMode
        var slotSizes: [UInt64: Int] = [:]
        if let info = try await optional(ImageSlotInfoRequest(), "slot info") {
            for image in info.images {
                slotSizes[image.image] = image.slots.first { $0.slot == 0 }.map { Int(clamping: $0.size) }
            }
            facts.slotSize = slotSizes[index]
        }
        return SMPDeviceSnapshot(facts: facts, images: images, window: negotiated.window, bootloaderMode: nil,
                                 slotSizes: slotSizes)
    }
}
