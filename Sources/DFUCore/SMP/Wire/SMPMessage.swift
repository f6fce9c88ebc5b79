/// A typed SMP body: one request or response of one command, decoded from and encoded to its CBOR
/// map. The same types serve the client and the virtual device, so the device sim decodes requests
/// and encodes responses with exactly the code the client uses the other way round.
///
/// Decoders check types, not meaning: an upload request with a 31-byte `sha` decodes, because the
/// device (not the codec) decides which error that earns.
public protocol SMPBody: Sendable, Hashable {
    init(body: CBORMap) throws(SMPBodyError)
    var body: CBORMap { get }
}

/// A request body, with the header fields that identify its command.
public protocol SMPRequest: SMPBody {
    associatedtype Response: SMPBody
    static var group: SMPGroup { get }
    static var command: UInt8 { get }
    /// `.read` or `.write`, as the server's handler table registers the command.
    static var op: SMPOp { get }
}

extension SMPRequest {
    /// The request as a packet. Encode it with `packet(...).encoded()`.
    public func packet(sequence: UInt8, version: SMPVersion = .v2) -> SMPPacket {
        SMPPacket(version: version, op: Self.op, group: Self.group, command: Self.command,
                  sequence: sequence, body: body)
    }

    /// Whether a received packet carries this kind of request (group and command; the op too,
    /// because Zephyr routes read and write of one command to different handlers).
    public static func matches(_ header: SMPHeader) -> Bool {
        header.group == group && header.command == command && header.op == op
    }
}

extension SMPBody {
    /// Decodes a response body: the device's refusal as `.failure`, or this type as `.success`.
    /// Throws when the body is malformed (a field of the wrong type, a required field missing).
    public static func decodeResponse(_ body: CBORMap) throws(SMPBodyError) -> Result<Self, SMPError> {
        switch try SMPStatus(body: body) {
        case .failure(let error): return .failure(error)
        case .success: return .success(try Self(body: body))
        }
    }

    /// The server's packet answering `request` with this body.
    public func response(to request: SMPHeader) -> SMPPacket {
        SMPPacket.response(to: request, body: body)
    }
}

/// A body with no fields: requests without parameters (state read, params read) and responses that
/// only say "done" (erase, reset). Unknown fields are ignored on decode, as everywhere.
public struct SMPEmptyBody: SMPBody {
    public init() {}
    public init(body: CBORMap) throws(SMPBodyError) {}
    public var body: CBORMap { [:] }
}
