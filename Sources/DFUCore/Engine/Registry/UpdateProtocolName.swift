/// An update protocol dfu speaks, as `dfu info`, `--protocol` and the JSON name it. Each protocol
/// declares its name beside its registry entry (`.smp`, `.nordic`); what it is called in words and
/// which files it takes come from that entry, so adding a protocol does not touch this file.
public struct UpdateProtocolName: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    public let rawValue: String

    /// A name a registry entry declares.
    init(declaring rawValue: String) { self.rawValue = rawValue }

    /// The registered protocol called `rawValue`; nil for any other word.
    public init?(rawValue: String) {
        guard let entry = ProtocolRegistry.all.first(where: { $0.name.rawValue == rawValue }) else { return nil }
        self = entry.name
    }

    /// Every registered protocol, in the registry's order.
    public static var allCases: [UpdateProtocolName] { ProtocolRegistry.all.map(\.name) }

    /// How messages name the protocol ("SMP (MCUmgr)").
    public var description: String { entry?.description ?? rawValue }

    /// The update files a device of this protocol takes, for a message about the wrong one.
    public var files: String { entry?.files ?? "an update file for \(rawValue)" }

    private var entry: ProtocolEntry? { ProtocolRegistry.entry(named: self) }
}

/// As its name (`"smp"`); a name no registered protocol has does not decode.
extension UpdateProtocolName: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let known = UpdateProtocolName(rawValue: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no protocol is called '\(name)'")
        }
        self = known
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
