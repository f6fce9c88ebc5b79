/// Which device to connect to: a Bluetooth address (`AA:BB:CC:DD:EE:FF`) for BlueZ, or any stable
/// name a backend understands (the virtual device's `id`). Opaque to the engine.
public struct PeerIdentity: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// For logs that must not leak full addresses: `AA:BB:CC:DD:EE:FF` becomes `…:EE:FF`.
    /// Identities that are not colon-separated addresses keep only their last four characters.
    public var redacted: String {
        let parts = rawValue.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 6 { return "…:" + parts.suffix(2).joined(separator: ":") }
        return rawValue.count <= 4 ? rawValue : "…" + rawValue.suffix(4)
    }
}
