/// SMP protocol version, header bits 4–3. Zephyr answers in the request's version capped at v2, and
/// answers versions above v2 with `MCUmgrError.protocolTooNew`, so the reserved values 2 and 3 are
/// representable: a server (our virtual device) must be able to see them to refuse them properly.
public struct SMPVersion: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt8

    /// Any 2-bit value; nil above 3.
    public init?(rawValue: UInt8) {
        guard rawValue <= 3 else { return nil }
        self.rawValue = rawValue
    }

    private init(unchecked rawValue: UInt8) { self.rawValue = rawValue }

    /// Legacy SMP: errors as a bare `rc`.
    public static let v1 = SMPVersion(unchecked: 0)
    /// SMP v2: group errors as `err {group, rc}`. smpclient and current Zephyr default to it.
    public static let v2 = SMPVersion(unchecked: 1)

    public var isDefined: Bool { self <= .v2 }

    public static func < (a: SMPVersion, b: SMPVersion) -> Bool { a.rawValue < b.rawValue }

    public var description: String { isDefined ? "v\(rawValue + 1)" : "reserved version \(rawValue)" }
}

/// SMP operation, header bits 2–0 (`mcumgr_op_t`). Values 4–7 are undefined and refused by
/// `SMPHeader`'s decoder: a frame carrying one is garbage, most likely a desynchronised stream.
public enum SMPOp: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case read = 0
    case readResponse = 1
    case write = 2
    case writeResponse = 3

    public var isResponse: Bool { self == .readResponse || self == .writeResponse }

    /// The op a server answers this request op with (a response op maps to itself).
    public var response: SMPOp {
        switch self {
        case .read, .readResponse: return .readResponse
        case .write, .writeResponse: return .writeResponse
        }
    }

    public var description: String {
        switch self {
        case .read: return "read"
        case .readResponse: return "read response"
        case .write: return "write"
        case .writeResponse: return "write response"
        }
    }
}

/// The 8-byte SMP header (Zephyr `smp_hdr`, all multi-byte fields big-endian):
///
///     byte 0   bits 7–5 reserved (0) · bits 4–3 version · bits 2–0 op
///     byte 1   flags (none defined)
///     2–3      body length (CBOR only, header excluded), u16 BE
///     4–5      group id, u16 BE
///     6        sequence number
///     7        command id
public struct SMPHeader: Sendable, Hashable, CustomStringConvertible {
    public static let size = 8

    public var version: SMPVersion
    public var op: SMPOp
    /// No flags are defined; kept so a frame decodes and re-encodes unchanged.
    public var flags: UInt8
    /// Length of the CBOR body that follows the header.
    public var length: UInt16
    public var group: SMPGroup
    public var sequence: UInt8
    public var command: UInt8

    public init(version: SMPVersion = .v2, op: SMPOp, flags: UInt8 = 0, length: UInt16, group: SMPGroup,
                sequence: UInt8, command: UInt8) {
        self.version = version
        self.op = op
        self.flags = flags
        self.length = length
        self.group = group
        self.sequence = sequence
        self.command = command
    }

    /// Decodes the first 8 bytes of `bytes` (any bytes after them are the caller's business).
    /// Refuses a header whose reserved bits are set or whose op is undefined.
    public init(decoding bytes: some Collection<UInt8>) throws(SMPFrameError) {
        let b = Array(bytes.prefix(Self.size))
        guard b.count == Self.size else { throw .truncatedHeader(available: b.count) }
        guard b[0] & 0xE0 == 0 else { throw .reservedHeaderBits(firstByte: b[0]) }
        guard let op = SMPOp(rawValue: b[0] & 0x07) else { throw .undefinedOp(b[0] & 0x07) }
        // Two bits cannot exceed 3, so the optional never fails here.
        self.version = SMPVersion(rawValue: (b[0] >> 3) & 0x03) ?? .v1
        self.op = op
        self.flags = b[1]
        self.length = UInt16(b[2]) << 8 | UInt16(b[3])
        self.group = SMPGroup(rawValue: UInt16(b[4]) << 8 | UInt16(b[5]))
        self.sequence = b[6]
        self.command = b[7]
    }

    public func encoded() -> [UInt8] {
        [
            version.rawValue << 3 | op.rawValue,
            flags,
            UInt8(length >> 8), UInt8(truncatingIfNeeded: length),
            UInt8(group.rawValue >> 8), UInt8(truncatingIfNeeded: group.rawValue),
            sequence,
            command,
        ]
    }

    /// The header a server puts on its answer to this request: same group, command and sequence,
    /// the response op, and the request's version capped at v2 (Zephyr `smp_make_rsp_hdr`).
    public func responseHeader(length: UInt16) -> SMPHeader {
        SMPHeader(version: min(version, .v2), op: op.response, flags: 0, length: length, group: group,
                  sequence: sequence, command: command)
    }

    /// Whether this (response) header answers `request`: response op of the request's op, same
    /// group, command and sequence. The version is not compared: a server may answer a newer
    /// version in an older one.
    public func answers(_ request: SMPHeader) -> Bool {
        op == request.op.response && op != request.op && group == request.group
            && command == request.command && sequence == request.sequence
    }

    public var description: String {
        "SMP \(version) \(op) group \(group) command \(command) seq \(sequence) length \(length)"
    }
}
