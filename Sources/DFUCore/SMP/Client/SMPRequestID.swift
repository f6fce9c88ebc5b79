/// Names one request for its whole life in `SMPClientCore`, across version retries that give it a
/// new sequence number. The caller picks it (the driver counts up), so the core needs no allocator
/// for it and the caller can key its own tables (continuations, chunk bookkeeping) by it.
public struct SMPRequestID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: SMPRequestID, rhs: SMPRequestID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The id after this one.
    public var next: SMPRequestID { SMPRequestID(rawValue &+ 1) }

    public var description: String { "request \(rawValue)" }
}

/// What a request says, without the parts the client core owns (sequence number, SMP version,
/// length). Built from any typed `SMPRequest`.
public struct SMPRequestMessage: Sendable, Hashable, CustomStringConvertible {
    public var op: SMPOp
    public var group: SMPGroup
    public var command: UInt8
    public var body: CBORMap

    public init(op: SMPOp, group: SMPGroup, command: UInt8, body: CBORMap) {
        self.op = op
        self.group = group
        self.command = command
        self.body = body
    }

    public init<R: SMPRequest>(_ request: R) {
        self.init(op: R.op, group: R.group, command: R.command, body: request.body)
    }

    /// The packet with the header fields the core chose.
    func packet(sequence: UInt8, version: SMPVersion) -> SMPPacket {
        SMPPacket(version: version, op: op, group: group, command: command, sequence: sequence, body: body)
    }

    public var description: String { "\(op) group \(group) command \(command)" }
}
