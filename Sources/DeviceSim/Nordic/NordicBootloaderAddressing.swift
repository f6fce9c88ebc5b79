import Transport

/// Where the simulated bootloader advertises after buttonless entry: at the application's address
/// + 1 as the SDK's bootloader does (`gap_address_change` in `nrf_dfu_ble.c`), or at an address of
/// its own that the central cannot derive: an application that uses a resolvable private address,
/// or a bootloader built with another address (issue 18's "bootloader dfu cannot predict").
public enum NordicBootloaderAddressing: Sendable, Hashable {
    case incremented
    case own(PeerIdentity)

    /// A static random address derived from `application` (FNV-1a, top two bits set), unrelated to
    /// it by any rule a central could apply, and the same on every run.
    public static func unrelated(to application: PeerIdentity) -> NordicBootloaderAddressing {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in ("bootloader of " + application.rawValue).utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        var bytes = (0 ..< 6).map { UInt8(truncatingIfNeeded: hash >> (8 * $0)) }
        bytes[0] |= 0xC0
        return .own(PeerIdentity(bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }
            .joined(separator: ":")))
    }
}
