/// One complete SMP frame whose header has been checked and whose body has not been decoded yet.
/// Kept apart from `SMPPacket` so a client can still read the sequence number of a response whose
/// CBOR turns out to be broken, and report "bad body in the reply to request 7".
public struct SMPFrame: Sendable, Hashable {
    public var header: SMPHeader
    public var body: [UInt8]

    public init(header: SMPHeader, body: [UInt8]) {
        self.header = header
        self.body = body
    }

    /// Exactly one frame: a valid header followed by exactly `header.length` body bytes.
    public init(decoding bytes: [UInt8]) throws(SMPFrameError) {
        let header = try SMPHeader(decoding: bytes)
        let actual = bytes.count - SMPHeader.size
        guard actual == Int(header.length) else {
            throw .lengthMismatch(declared: Int(header.length), actual: actual)
        }
        self.init(header: header, body: Array(bytes[SMPHeader.size...]))
    }

    /// Header then body. The header's length field is written as stored; `SMPPacket.encoded()`
    /// is the path that computes it.
    public func encoded() -> [UInt8] {
        header.encoded() + body
    }
}
