import Transport

/// SMP over a serial byte stream, shown as the SMP GATT service (`DatagramGATTFace.smp`) so the
/// session, the engine and every SMP operation drive a UART as they drive Bluetooth or UDP. It
/// wraps a byte link (a tty, `SerialTransport`'s `SerialLink`) whose one characteristic carries
/// raw bytes each way: each SMP packet written is framed (`SMPStreamFraming`) and written as one
/// piece; the bytes read are decoded, and each packet completed arrives as a notification.
/// Console text between frames (shell and log output) and frames thrown away go to `observer`,
/// which `--verbose` shows; they never reach the SMP client. The framing belongs to SMP, not to the
/// port, which is why it lives here and not in the backend.
///
/// A serial line has no connection: a device that resets is noticed by its silence, as over UDP
/// (`isConnectionless`), unless its USB port vanishes, which ends the byte link and so this one.
/// Packets are whole messages (`writesAreWholeMessages`): the device decodes a packet from the
/// stream, never one from several of our writes. Writes come from one writer (the session's);
/// concurrent writers could interleave the pieces of a frame longer than the byte link's writes.
public final class SMPSerialLink: Link {
    /// What the link saw besides packets, for the log.
    public enum Note: Sendable, Hashable {
        /// A line of text from the device (its newline removed), outside any frame.
        case text(String)
        /// Bytes the framing threw away, and why.
        case dropped(String)
    }

    public let parameters: LinkParameters
    public let services: [GATTService]
    public let events: AsyncStream<LinkEvent>
    public let framing: SMPStreamFraming
    private let base: any Link
    private let byteCharacteristic: CharacteristicID
    private let face: DatagramGATTFace
    private let reader: Task<Void, Never>

    /// Starts decoding `base`'s bytes, which arrive on (and are written to) `byteCharacteristic`.
    public init(wrapping base: any Link, byteCharacteristic: CharacteristicID, framing: SMPStreamFraming,
                face: DatagramGATTFace = .smp, observer: @escaping @Sendable (Note) -> Void = { _ in }) {
        self.base = base
        self.byteCharacteristic = byteCharacteristic
        self.framing = framing
        self.face = face
        let lineCeiling = base.parameters.writeCommandCeiling
        parameters = LinkParameters(generation: base.parameters.generation, peer: base.parameters.peer,
                                    attMTU: framing.maximumPacketSize + 3, maxWriteWithoutResponse: framing.maximumPacketSize,
                                    writeCommandCeiling: lineCeiling.map { $0 * framing.efficiency },
                                    writesAreWholeMessages: true, isConnectionless: true)
        services = face.services
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        self.events = events
        let generation = base.parameters.generation
        let characteristic = face.characteristic
        reader = Task {
            var framer = SMPStreamFramer(framing: framing)
            for await event in base.events {
                switch event.kind {
                case .notification(let source, let bytes):
                    guard source == byteCharacteristic else { continue }
                    for output in framer.receive(bytes) {
                        switch output {
                        case .packet(let packet):
                            continuation.yield(LinkEvent(generation: generation, kind: .notification(characteristic, packet)))
                        case .text(let text):
                            observer(.text(Self.printable(text)))
                        case .dropped(let reason):
                            observer(.dropped(reason))
                        }
                    }
                case .disconnected(let reason):
                    continuation.yield(LinkEvent(generation: generation, kind: .disconnected(reason)))
                    continuation.finish()
                    return
                }
            }
            continuation.finish()
        }
    }

    deinit { reader.cancel() }

    /// Frames one SMP packet and writes it; suspends while the port's buffers are full.
    public func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        guard characteristic == face.characteristic else { throw .characteristicNotFound(characteristic) }
        let framed: [UInt8]
        do throws(SMPSerialEncodingError) {
            framed = try SMPStreamFramer(framing: framing).frame(bytes)
        } catch {
            throw .payloadTooLarge(size: bytes.count, limit: framing.maximumPacketSize)
        }
        let piece = max(base.parameters.maxWriteWithoutResponse, 1)
        var start = 0
        while start < framed.count {
            let end = min(start + piece, framed.count)
            try await base.writeWithoutResponse(Array(framed[start..<end]), to: byteCharacteristic)
            start = end
        }
    }

    /// A serial line has only the one stream: nothing to write with a response.
    public func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        guard characteristic == face.characteristic else { throw .characteristicNotFound(characteristic) }
        throw .notSupported(characteristic, missing: .write)
    }

    public func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        guard characteristic == face.characteristic else { throw .characteristicNotFound(characteristic) }
        throw .notSupported(characteristic, missing: .read)
    }

    /// Packets arrive whether or not anyone asked, as on UDP.
    public func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {
        guard characteristic == face.characteristic else { throw .characteristicNotFound(characteristic) }
        try await base.subscribe(byteCharacteristic)
    }

    public func disconnect() async {
        await base.disconnect()
    }

    /// Device text as a log line: printable ASCII kept, the line end dropped, anything else as `\xNN`,
    /// so a garbled byte cannot move the user's cursor.
    static func printable(_ bytes: [UInt8]) -> String {
        var text = ""
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        for byte in bytes[..<end] {
            if byte >= 0x20, byte < 0x7F {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + hexDigits(byte, width: 2)
            }
        }
        return text
    }
}
