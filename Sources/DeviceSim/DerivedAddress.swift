import Transport

extension PeerIdentity {
    /// A BLE random static address derived from `text` (FNV-1a; six bytes, the top two bits set):
    /// the same text always gives the same address, and no rule a central could apply relates two.
    package static func derived(from text: String) -> PeerIdentity {
        let hash = fnv1a(text.utf8)
        var bytes = (0 ..< 6).map { UInt8(truncatingIfNeeded: hash >> (8 * $0)) }
        bytes[0] |= 0xC0
        return PeerIdentity(bytes.map { hexDigits($0, width: 2) }.joined(separator: ":"))
    }
}
