/// How well a connection is protected, as far as the backend can tell. BlueZ reports no encryption
/// over D-Bus: a bonded LE device is encrypted at connect with its stored key (bluez-dbus.md §9),
/// so `encrypted` follows from the bond; whether that key is authenticated (MITM-protected: passkey
/// or numeric comparison, not Just Works) is known when this run paired it, else nil.
public struct LinkSecurity: Hashable, Sendable {
    /// The central holds keys for the device (BlueZ `Paired`).
    public var paired: Bool
    /// Those keys are stored for later connections (BlueZ `Bonded`).
    public var bonded: Bool
    /// The link is encrypted; nil when the backend cannot tell.
    public var encrypted: Bool?
    /// The key is authenticated; nil when the backend cannot tell.
    public var authenticated: Bool?
    /// This connection paired the device (rather than reusing a bond).
    public var pairedNow: Bool

    public init(paired: Bool, bonded: Bool, encrypted: Bool?, authenticated: Bool?, pairedNow: Bool = false) {
        self.paired = paired
        self.bonded = bonded
        self.encrypted = encrypted
        self.authenticated = authenticated
        self.pairedNow = pairedNow
    }

    /// A link with no pairing at all (the device did not ask for one).
    public static let open = LinkSecurity(paired: false, bonded: false, encrypted: false, authenticated: false)
}
