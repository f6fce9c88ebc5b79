import Transport

/// Where the bootloader advertises.
public enum BootloaderAddress: Sendable, Hashable {
    /// The SDK default without `NRF_DFU_BLE_REQUIRES_BONDS`: the device's address with its least
    /// significant octet plus one, as a `uint8_t`, so `FF` wraps to `00` with no carry
    /// (nrf_dfu_ble.c `gap_address_change`, run by `gap_params_init` on every bootloader start).
    case incrementedApplicationAddress
    /// An address unrelated to the application's: an application that advertises with a resolvable
    /// private address, or a bootloader given its own address.
    case fixed(PeerIdentity)

    /// The bootloader's identity for an application at `application`; nil when the rule needs an
    /// `AA:BB:CC:DD:EE:FF` address and `application` is not one.
    public func identity(forApplicationAt application: PeerIdentity) -> PeerIdentity? {
        switch self {
        case .fixed(let identity):
            return identity
        case .incrementedApplicationAddress:
            guard var octets = Self.octets(application.rawValue) else { return nil }
            // Text order is most significant first: the last octet written is addr[0].
            octets[5] &+= 1
            return PeerIdentity(octets.map(Self.hex).joined(separator: ":"))
        }
    }

    /// The six octets of `AA:BB:CC:DD:EE:FF`, in text order; nil for anything else.
    static func octets(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard part.count == 2, let value = UInt8(part, radix: 16) else { return nil }
            octets.append(value)
        }
        return octets
    }

    private static func hex(_ octet: UInt8) -> String {
        let digits = String(octet, radix: 16, uppercase: true)
        return octet < 0x10 ? "0" + digits : digits
    }
}
