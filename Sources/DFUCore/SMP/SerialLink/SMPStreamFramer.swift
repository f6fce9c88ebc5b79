/// SMP packets to and from one serial byte stream, in either framing. Sans-I/O: packets in, bytes
/// out; bytes in (split anywhere), packets, device text and drops out, in stream order.
public struct SMPStreamFramer: Sendable {
    /// What the bytes received completed.
    public enum Output: Sendable, Hashable {
        case packet([UInt8])
        /// Console text outside any frame (shell or log output sharing the UART).
        case text([UInt8])
        /// Bytes thrown away, and why, in words for `--verbose`.
        case dropped(String)
    }

    private enum Decoder: Sendable {
        case console(SMPSerialDecoder)
        case raw(SMPRawStreamDecoder)
    }

    public let framing: SMPStreamFraming
    private let encoder = SMPSerialEncoder()
    private var decoder: Decoder

    public init(framing: SMPStreamFraming) {
        self.framing = framing
        switch framing {
        case .console: decoder = .console(SMPSerialDecoder())
        case .raw: decoder = .raw(SMPRawStreamDecoder())
        }
    }

    /// The bytes that carry `packet`. Throws when the framing cannot carry a packet that long.
    public func frame(_ packet: [UInt8]) throws(SMPSerialEncodingError) -> [UInt8] {
        switch framing {
        case .console:
            return try encoder.encode(packet)
        case .raw:
            guard packet.count <= framing.maximumPacketSize else {
                throw .packetTooLarge(size: packet.count, maximum: framing.maximumPacketSize)
            }
            return packet
        }
    }

    public mutating func receive(_ bytes: [UInt8]) -> [Output] {
        switch decoder {
        case .console(var console):
            let events = console.receive(bytes)
            decoder = .console(console)
            return events.map { event in
                switch event {
                case .packet(let packet): return .packet(packet)
                case .text(let text): return .text(text)
                case .dropped(let reason): return .dropped("a console frame: \(reason)")
                }
            }
        case .raw(var raw):
            let events = raw.receive(bytes)
            decoder = .raw(raw)
            return events.map { event in
                switch event {
                case .packet(let packet): return .packet(packet)
                case .skipped(let bytes, let reason): return .dropped("\(bytes.count) bytes that start no SMP packet: \(reason)")
                }
            }
        }
    }
}
