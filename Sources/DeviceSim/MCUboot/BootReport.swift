import DFUCore

/// What one boot did: the MCUboot log line of the model, and how long the device was away.
public struct BootReport: Sendable, Hashable, CustomStringConvertible {
    public enum Outcome: Sendable, Hashable {
        /// Nothing pending: the primary image booted as it was.
        case normal
        /// The secondary image validated and was swapped in (for a test, or permanently).
        case swapped(permanent: Bool)
        /// Overwrite-only: the secondary image validated and was copied over the primary slot,
        /// decompressed on the way when it was compressed.
        case overwritten(decompressed: Bool)
        /// The unconfirmed test image was swapped back out.
        case reverted
        /// The pending secondary image failed validation: MCUboot erased the slot and booted the old
        /// image. `reason` says which check failed.
        case rejected(reason: String)
    }

    public var outcome: Outcome
    /// Swap (if any) plus the application's start-up.
    public var duration: Duration
    /// The image now running. Nil only if the primary slot holds no valid image, which nothing in
    /// the model can cause (only validated images are swapped in).
    public var running: SlotImage?
    /// What the same boot did with images 1… of a multi-image device (empty with one image).
    public var otherImages: [Outcome] = []

    public init(outcome: Outcome, duration: Duration, running: SlotImage?) {
        self.outcome = outcome
        self.duration = duration
        self.running = running
    }

    public var description: String {
        let version = running.map { " → running \($0.version)" } ?? ""
        let others = otherImages.enumerated().filter { $0.element != .normal }
            .map { "; image \($0.offset + 1): \(Self.words($0.element))" }.joined()
        return "MCUboot \(Self.words(outcome)) in \(duration)\(version)\(others)"
    }

    private static func words(_ outcome: Outcome) -> String {
        switch outcome {
        case .normal: return "booted"
        case .swapped(let permanent): return permanent ? "swapped in permanently" : "swapped in for test"
        case .overwritten(let decompressed): return decompressed ? "decompressed the new image into slot 0" : "copied the new image into slot 0"
        case .reverted: return "reverted the unconfirmed image"
        case .rejected(let reason): return "rejected the pending image (\(reason))"
        }
    }
}
