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
        .own(.derived(from: "bootloader of " + application.rawValue))
    }
}
