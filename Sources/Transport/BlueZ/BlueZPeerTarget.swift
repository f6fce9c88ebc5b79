import Transport

/// What a `PeerIdentity` names for BlueZ: an address ("AA:BB:CC:DD:EE:FF", any case), a device
/// name ("name:sensor-12"), or the one device advertising a name others may share
/// ("sole-name:DfuTarg", a last resort: `Connector.isLastResort`). Anything else names no BlueZ device.
enum BlueZPeerTarget: Sendable, Equatable {
    /// Upper case, as BlueZ reports addresses.
    case address(String)
    case name(String)
    /// Found like `.name`, but refused (`LinkError.ambiguous`) when another device heard
    /// advertises the same name with an expected service; never remembered.
    case soleName(String)

    init?(_ peer: PeerIdentity) {
        let text = peer.rawValue
        if text.hasPrefix("sole-name:") {
            let name = String(text.dropFirst(10))
            guard !name.isEmpty else { return nil }
            self = .soleName(name)
            return
        }
        if text.hasPrefix("name:") {
            let name = String(text.dropFirst(5))
            guard !name.isEmpty else { return nil }
            self = .name(name)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else { return nil }
        self = .address(text.uppercased())
    }
}
