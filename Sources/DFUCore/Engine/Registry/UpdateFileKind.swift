/// What an update file is, told by its content (not its name) by the protocol that takes it
/// (`ProtocolRegistry.recognise`). Each protocol declares its kinds beside its registry entry
/// (`.mcubootImage`, `.ncsPackage` for SMP; `.nordicPackage` for Nordic Secure DFU).
public struct UpdateFileKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The kind of `bytes` as the registered protocols read it; nil when none takes the file
    /// (never with SMP registered: its image parser takes any file no other protocol claims, and
    /// says what is wrong with it).
    public init?(of bytes: [UInt8]) {
        guard let recognised = ProtocolRegistry.recognise(bytes) else { return nil }
        self = recognised.kind
    }

    public var description: String { rawValue }
}
