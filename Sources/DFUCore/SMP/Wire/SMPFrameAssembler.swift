/// Reassembles SMP frames from notification or datagram payloads (h11's "receive data, next event"
/// split: `append` stores bytes and returns a frame only when one is complete, nil for "need more").
///
/// GATT keeps order and SMP has no framing beyond the header, so the rules are smpclient's and
/// Zephyr's: collect until 8 bytes give the header, then until `8 + length` bytes; more bytes than
/// that in one payload is an error, never the start of the next frame, because a conforming peer
/// never puts two packets in one write or notification. Every error also drops the partial frame,
/// so the next payload starts afresh, as Zephyr's reassembly does.
///
/// The same type serves datagram transports (UDP): one datagram is one frame, and a datagram that
/// is short simply leaves the assembler waiting, where a caller can `reset()` it.
public struct SMPFrameAssembler: Sendable {
    /// Largest frame (header + body) accepted. A header announcing more fails at once, before any
    /// body byte is buffered. Set it from the link (e.g. the device's `buf_size`) when known.
    public let maximumFrameSize: Int

    private var buffer: [UInt8] = []
    /// Total size of the frame being collected, once its header is known.
    private var expectedSize: Int?

    public init(maximumFrameSize: Int = SMPHeader.size + Int(UInt16.max)) {
        self.maximumFrameSize = maximumFrameSize
    }

    /// Bytes of an incomplete frame held so far.
    public var bufferedByteCount: Int { buffer.count }

    /// True when no partial frame is held.
    public var isIdle: Bool { buffer.isEmpty }

    /// Drops any partial frame (e.g. on disconnect: Zephyr drops its half-collected packet too).
    public mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
        expectedSize = nil
    }

    /// Adds one payload. Returns the frame it completes, or nil when more bytes are needed.
    public mutating func append(_ payload: some Collection<UInt8>) throws(SMPFrameError) -> SMPFrame? {
        if let expectedSize, buffer.count + payload.count > expectedSize {
            let received = buffer.count + payload.count
            reset()
            throw .bytesBeyondFrameEnd(expected: expectedSize, received: received)
        }
        buffer.append(contentsOf: payload)

        if expectedSize == nil && buffer.count >= SMPHeader.size {
            let header: SMPHeader
            do {
                header = try SMPHeader(decoding: buffer)
            } catch {
                reset()
                throw error
            }
            let total = SMPHeader.size + Int(header.length)
            guard total <= maximumFrameSize else {
                reset()
                throw .frameTooLarge(declared: total, maximum: maximumFrameSize)
            }
            guard buffer.count <= total else {
                let received = buffer.count
                reset()
                throw .bytesBeyondFrameEnd(expected: total, received: received)
            }
            expectedSize = total
        }

        guard let expectedSize, buffer.count == expectedSize else { return nil }
        // The header was decoded from these very bytes a moment ago; decode again instead of
        // caching it so there is one source of truth.
        defer { reset() }
        return try SMPFrame(decoding: buffer)
    }
}
