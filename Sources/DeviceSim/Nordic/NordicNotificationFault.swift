/// A Control Point notification the simulated bootloader damages on purpose (`sim:cp_fault=`): the
/// Nth answer to one request, counted over the device's life (resets included), arrives with its
/// last byte inverted (`corrupt`), without it (`truncate`), not at all (`drop`: a bootloader whose
/// notification queue was full, or a response frame lost on a UART) or twice (`duplicate`). Each
/// fires once. A packet receipt is a checksum answer on the wire (`60 03 01 …`) and counts as one.
public struct NordicNotificationFault: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case corrupt, truncate, drop, duplicate
    }

    /// The requests whose answers can be damaged, by their names in the option.
    public static let requests: [(name: String, opcode: UInt8)] = [
        ("create", 0x01), ("prn", 0x02), ("checksum", 0x03), ("execute", 0x04), ("select", 0x06),
    ]

    public let kind: Kind
    /// The request's op code, which its answer repeats (`60 <op> <result> …`).
    public let opcode: UInt8
    /// Which answer to that request, from 1.
    public let ordinal: Int

    public init?(kind: Kind, opcode: UInt8, ordinal: Int) {
        guard Self.requests.contains(where: { $0.opcode == opcode }), (1 ... 10_000_000).contains(ordinal) else { return nil }
        self.kind = kind
        self.opcode = opcode
        self.ordinal = ordinal
    }

    /// `corrupt@checksum:5`, `truncate@execute:2`.
    public init?(_ text: Substring) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = Kind(rawValue: parts[0].lowercased()) else { return nil }
        let point = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard point.count == 2, let request = Self.requests.first(where: { $0.name == point[0].lowercased() }),
              let n = Int(point[1]) else { return nil }
        self.init(kind: kind, opcode: request.opcode, ordinal: n)
    }

    public var description: String {
        let name = Self.requests.first { $0.opcode == opcode }?.name ?? "0x" + String(opcode, radix: 16)
        return "\(kind.rawValue)@\(name):\(ordinal)"
    }

    /// The notifications this fault sends for `bytes`: none, one or two.
    func apply(to bytes: [UInt8]) -> [[UInt8]] {
        guard let last = bytes.indices.last else { return [bytes] }
        var damaged = bytes
        switch kind {
        case .corrupt: damaged[last] ^= 0xFF
        case .truncate: damaged.removeLast()
        case .drop: return []
        case .duplicate: return [bytes, bytes]
        }
        return [damaged]
    }

    static let expected = "KIND@REQUEST:N (KIND: " + Kind.allCases.map(\.rawValue).joined(separator: ", ") + "; REQUEST: "
        + requests.map(\.name).joined(separator: ", ") + "; N from 1), joined with '+' (e.g. corrupt@checksum:5)"
}
