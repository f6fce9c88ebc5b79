import Transport

/// Where an nRF5 SDK bootloader shows up after buttonless entry (nordic-secure-dfu.md §1.3): built
/// without bonds, it adds 1 to the least significant octet of the application's address, as a
/// byte, so `…:FF` becomes `…:00` with no carry into the next octet; with bonds it keeps the address.
enum BootloaderAddress {
    /// The bootloader's address for an application at `peer` (an `AA:BB:CC:DD:EE:FF` address);
    /// nil when `peer` is not one (a name, the virtual device's id).
    static func incremented(_ peer: PeerIdentity) -> PeerIdentity? {
        shifted(peer, by: 1)
    }

    /// The application's address for a bootloader at `peer` built without bonds: the inverse.
    static func decremented(_ peer: PeerIdentity) -> PeerIdentity? {
        shifted(peer, by: 255)
    }

    /// `peer` with `delta` added to its last octet as a byte (no carry, no borrow).
    private static func shifted(_ peer: PeerIdentity, by delta: UInt8) -> PeerIdentity? {
        var octets = peer.rawValue.split(separator: ":", omittingEmptySubsequences: false)
        guard octets.count == 6, octets.allSatisfy({ $0.count == 2 }),
              let lastText = octets.last, let last = UInt8(lastText, radix: 16) else { return nil }
        guard octets.dropLast().allSatisfy({ UInt8($0, radix: 16) != nil }) else { return nil }
        let next = last &+ delta
        octets[octets.count - 1] = Substring(hexDigits(next, width: 2).uppercased())
        return PeerIdentity(octets.joined(separator: ":"))
    }
}
