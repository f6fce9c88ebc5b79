extension SMPOperator {
    /// How long an erase may take: the device erases the whole slot before it answers, which on
    /// external flash takes tens of seconds (iOS McuManager allows 75 s, smp-mcuboot.md §3).
    public static let eraseTimeout: Duration = .seconds(75)

    /// Erases `slot` (image erase; nil: the device's default, the running application's other
    /// slot, 1). Slots are numbered across images as the device numbers them: image i's primary is
    /// 2i, its secondary 2i + 1. The device refuses a slot that is pending or holds the image it
    /// would revert to. Returns the image list read after the erase.
    public func erase(slot: UInt64?) async throws(DFUError) -> ImageStateResponse {
        try await run("'dfu image erase'") { link async throws(DFUError) in
            let which = slot.map { "slot \($0)" } ?? "its default slot"
            _ = try await link.send(ImageEraseRequest(slot: slot), "the request to erase \(which)",
                                    timeout: max(Self.eraseTimeout, deadlines.request),
                                    refused: { SMPOperationFailure.eraseRefused($0, which: which, device: device) })
            return try await link.imageList()
        }
    }
}
