/// An SMP packet: header plus a CBOR map body (groups below 64 always carry a map, even an empty
/// one). Encoding computes the header's length field from the body, so a packet can never go out
/// with a length that disagrees with its bytes.
public struct SMPPacket: Sendable, Hashable {
    /// `header.length` is informational after decoding and ignored by `encoded()`.
    public var header: SMPHeader
    public var body: CBORMap

    public init(header: SMPHeader, body: CBORMap) {
        self.header = header
        self.body = body
    }

    public init(version: SMPVersion = .v2, op: SMPOp, group: SMPGroup, command: UInt8, sequence: UInt8,
                body: CBORMap = [:]) {
        self.header = SMPHeader(version: version, op: op, length: 0, group: group, sequence: sequence,
                                command: command)
        self.body = body
    }

    /// Decodes the body of a complete frame.
    public init(frame: SMPFrame, limits: CBORDecoder.Limits = .default) throws(SMPFrameError) {
        let value: CBORValue
        do {
            value = try CBORDecoder(limits: limits).decode(frame.body)
        } catch {
            throw .invalidBody(error)
        }
        guard case .map(let map) = value else { throw .bodyNotAMap(found: value.kindName) }
        self.init(header: frame.header, body: map)
    }

    /// Decodes exactly one whole packet (a UDP datagram, or the output of `SMPFrameAssembler`).
    public init(decoding bytes: [UInt8], limits: CBORDecoder.Limits = .default) throws(SMPFrameError) {
        try self.init(frame: try SMPFrame(decoding: bytes), limits: limits)
    }

    /// Header (with the real body length) then body. `encoder` lets the virtual device write
    /// indefinite-length maps like Zephyr, or canonical key order like smpclient.
    public func encoded(using encoder: CBOREncoder = CBOREncoder()) throws(SMPFrameError) -> [UInt8] {
        let bodyBytes = encoder.encode(body)
        guard let length = UInt16(exactly: bodyBytes.count) else {
            throw .bodyTooLarge(length: bodyBytes.count)
        }
        var header = self.header
        header.length = length
        return header.encoded() + bodyBytes
    }

    /// The server's answer to `request` carrying `body` (see `SMPHeader.responseHeader`).
    public static func response(to request: SMPHeader, body: CBORMap) -> SMPPacket {
        SMPPacket(header: request.responseHeader(length: 0), body: body)
    }

    /// The server's error answer to `request`.
    public static func response(to request: SMPHeader, error: SMPError) -> SMPPacket {
        response(to: request, body: error.body)
    }
}
