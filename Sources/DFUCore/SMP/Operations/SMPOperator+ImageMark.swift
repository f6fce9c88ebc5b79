extension SMPOperator {
    /// Marks the image whose SHA256 TLV is `hash` for a test boot at the next reset (image state
    /// write `{hash, confirm: false}`): MCUboot reverts it on the reset after that unless it is
    /// confirmed. Returns the image list the device answered with, which shows it pending.
    public func test(hash: [UInt8]) async throws(DFUError) -> ImageStateResponse {
        try await run("'dfu image test'") { link async throws(DFUError) in
            let target = try await link.slot(holding: hash)
            let state = try await link.send(ImageStateWriteRequest(hash: hash, confirm: false),
                                            "the request to mark \(target.name) for test",
                                            refused: { SMPOperationFailure.markRefused($0, target: target, device: device) })
            guard let after = state.slot(target.slot, image: target.image), after.hash == hash, after.pending else {
                throw SMPOperationFailure.notAsAsked("to mark \(target.name) for test", "pending", device: device)
            }
            return state
        }
    }

    /// Confirms an image (image state write with `confirm: true`). Without `hash`, the image the
    /// device runs (image 0's active slot), as mcumgr's `image confirm` does: a test boot becomes
    /// permanent. With the hash of the running image, the same; with the hash of an image that does
    /// not run, it boots at the next reset for good, without a test. Returns the image list the
    /// device answered with, which shows it confirmed (or pending and permanent).
    public func confirm(hash: [UInt8]?) async throws(DFUError) -> ImageStateResponse {
        try await run("'dfu image confirm'") { link async throws(DFUError) in
            let target: SMPSlotReference
            if let hash {
                target = try await link.slot(holding: hash)
            } else {
                let listed = try await link.imageList()
                guard let running = listed.running(image: 0) else {
                    throw .deviceRejected("\(device) lists no running image to confirm. 'dfu image list' shows its slots.")
                }
                target = SMPSlotReference(running)
            }
            let state = try await link.send(ImageStateWriteRequest(hash: hash, confirm: true),
                                            "the request to confirm \(target.name)",
                                            refused: { SMPOperationFailure.markRefused($0, target: target, device: device) })
            let after = state.slot(target.slot, image: target.image)
            let done = target.active ? after?.confirmed == true : after?.pending == true && after?.permanent == true
            guard let after, after.hash == target.hash, done else {
                throw SMPOperationFailure.notAsAsked("to confirm \(target.name)",
                                                     target.active ? "confirmed" : "pending and permanent", device: device)
            }
            return state
        }
    }
}

extension SMPOperationLink {
    /// The slot holding the image with `hash`, found in the image list before anything is written:
    /// a device answers an unknown hash with HASH_NOT_FOUND in SMP v2 but only EUNKNOWN in v1, so
    /// the list gives the clear answer on every device.
    func slot(holding hash: [UInt8]) async throws(DFUError) -> SMPSlotReference {
        let listed = try await imageList()
        guard let slot = listed.images.first(where: { $0.hash == hash }) else {
            throw SMPOperationFailure.hashNotFound(hash, listed: listed, device: device)
        }
        return SMPSlotReference(slot)
    }
}
