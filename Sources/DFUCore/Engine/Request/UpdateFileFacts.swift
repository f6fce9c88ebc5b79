import Transport

/// What an update file held when a run read it: its SHA-256, its size, and the protocol that takes
/// it (the registry's strongest claim, `ProtocolRegistry.recognise`). The journal keeps them beside
/// the request, so a resumed run refuses a file that changed and `dfu batch` tells a finished
/// update from one to do.
public struct UpdateFileFacts: Sendable, Equatable, Codable {
    /// Lower-case hex.
    public var sha256: String
    public var size: Int
    public var protocolName: UpdateProtocolName

    public init(sha256: String, size: Int, protocolName: UpdateProtocolName) {
        self.sha256 = sha256
        self.size = size
        self.protocolName = protocolName
    }

    /// The facts of `bytes`; nil when they cannot be hashed or no registered protocol takes them.
    public init?(of bytes: [UInt8]) {
        guard let digest = try? SHA256.hash(bytes), let recognised = ProtocolRegistry.recognise(bytes) else { return nil }
        self.init(sha256: hexString(digest), size: bytes.count, protocolName: recognised.entry.name)
    }

    enum CodingKeys: String, CodingKey {
        case sha256, size
        case protocolName = "protocol"
    }
}
