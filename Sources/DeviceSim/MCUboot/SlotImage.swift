import DFUCore

/// What the application reads from a slot's image header and TLVs, as Zephyr's `img_mgmt_read_info`
/// does: version, the SHA256 TLV as stored (not recomputed), flags. A slot whose bytes do not parse
/// as an MCUboot image or carry no SHA256 TLV has no `SlotImage`, and Zephyr leaves such a slot out of
/// the state list.
public struct SlotImage: Sendable, Hashable {
    public var version: ImageVersion
    /// The SHA256 TLV: what SMP calls the slot's hash.
    public var hash: [UInt8]
    public var flags: MCUbootHeader.Flags
    /// Header, body and both TLV areas.
    public var length: Int

    public init(version: ImageVersion, hash: [UInt8], flags: MCUbootHeader.Flags, length: Int) {
        self.version = version
        self.hash = hash
        self.flags = flags
        self.length = length
    }

    /// The image in `slot`, or nil when there is no valid one.
    public init?(in slot: FlashSlot) {
        guard let image = try? MCUbootImage(bytes: slot.bytes), let hash = image.sha256TLV else { return nil }
        self.init(version: image.version, hash: hash, flags: image.header.flags, length: image.imageLength)
    }

    public var isBootable: Bool { !flags.contains(.nonBootable) }

    /// Zephyr's version string: "major.minor.revision", plus ".build" only when build is not 0.
    public var versionString: String { Self.versionString(version) }

    public static func versionString(_ version: ImageVersion) -> String {
        let base = "\(version.major).\(version.minor).\(version.revision)"
        return version.build == 0 ? base : base + ".\(version.build)"
    }
}
