import Transport

/// The bootloader's address: the application's with its least significant octet plus one, without
/// carry (`gap_address_change` in `nrf_dfu_ble.c`; nordic-secure-dfu.md §1.3). The least significant
/// octet is the last one written (`AA:BB:CC:DD:EE:FF` → `…:00`).
///
/// An identity that is no address (`sim:id=unit-01`, as a factory plan names its units) has no
/// "+ 1" a central could derive: its bootloader answers under the identity itself, as one that
/// keeps the application's address does, so the device is found where it was named.
public enum NordicAddress {
    public static func bootloader(for application: PeerIdentity) -> PeerIdentity {
        var octets = application.rawValue.split(separator: ":", omittingEmptySubsequences: false)
        guard octets.count == 6, octets.allSatisfy({ $0.count == 2 }), let last = octets.last,
              let value = UInt8(last, radix: 16) else {
            return application
        }
        let next = value &+ 1
        octets[5] = Substring(hexDigits(next, width: 2))
        return PeerIdentity(octets.joined(separator: ":"))
    }
}
