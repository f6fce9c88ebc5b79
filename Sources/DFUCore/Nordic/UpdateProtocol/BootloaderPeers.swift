import Transport

/// The peers a Nordic bootloader is looked for under besides its addresses (nordic-secure-dfu.md
/// §1.2, §1.3): the name the application gave it, or, when it could not, the SDK's default name
/// as the only device in range that advertises it. A connector matches a name together with the
/// layout's service (0xFE59); `sole-name:` refuses several matches rather than picking one.
enum BootloaderPeers {
    /// `NRF_DFU_BLE_ADV_NAME`'s default in the SDK's bootloader configuration.
    static let defaultName = "DfuTarg"
    static var soleDefault: PeerIdentity { PeerIdentity("sole-name:" + defaultName) }

    static func named(_ name: String) -> PeerIdentity { PeerIdentity("name:" + name) }

    /// A peer that is a name to look for (`name:`, `sole-name:`), not a device's address.
    static func isName(_ peer: PeerIdentity) -> Bool {
        peer.rawValue.hasPrefix("name:") || peer.rawValue.hasPrefix("sole-name:")
    }

    /// `Dfu` and five random digits, as Nordic's iOS library names a bootloader by default
    /// (iOS-PER): unlikely to meet another device's in range, and 8 bytes, well within 20.
    static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        return "Dfu" + String(Int.random(in: 0 ... 99_999, using: &generator) + 100_000).dropFirst()
    }

    /// For the log: an address shortened, a name as it is advertised.
    static func describe(_ peer: PeerIdentity) -> String {
        let text = peer.rawValue
        if text.hasPrefix("sole-name:") { return "the only " + text.dropFirst("sole-name:".count) }
        if text.hasPrefix("name:") { return "the name " + text.dropFirst("name:".count) }
        return peer.redacted
    }
}
