extension MemoryConnector {
    /// Whether `peer` (a registered identity) advertises now: what a radio listening in would hear.
    /// The BlueZ stand-in asks it for a memory-link device it plays, so that the device is heard
    /// only while its model advertises (not while it reboots, not under an identity it left).
    public func isAdvertising(_ peer: PeerIdentity) -> Bool {
        entries[peer]?.advertising ?? false
    }

    /// The name `peer` (a registered identity) advertises under now; nil when it gave none. The
    /// stand-in asks it too: a Nordic bootloader advertises the name its application was told to
    /// give it (buttonless set-name), which a central then looks for.
    public func advertisedName(of peer: PeerIdentity) -> String? {
        entries[peer]?.name
    }
}
