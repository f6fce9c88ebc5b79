#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// A `Link` over a serial port (a UART, a board's USB CDC ACM console): the port dressed as one
/// GATT characteristic (`DatagramGATTFace`, which the protocol above names), as `UDPLink` dresses a
/// UDP socket. It only moves bytes; the framing of what they carry belongs to the protocol above.
///
/// - `writeWithoutResponse(_, to: characteristic)` writes ALL the bytes, in call order; it suspends
///   while the kernel's output buffer is full (never sleeps, never drops). A serial line is a byte
///   stream, so one write is no message boundary: `parameters.writesAreWholeMessages` is false.
/// - Each chunk a read returns becomes `.notification(characteristic, bytes)`; chunks follow the
///   line's timing, not the sender's messages.
/// - `subscribe` succeeds at once; `write` and `read` throw `.notSupported`, as on UDP.
/// - The port vanishing (a board that resets re-enumerates its USB port: a hang-up, or `EIO`,
///   `ENXIO`, `ENODEV`) ends the link with `.disconnected(.other("the serial port PATH went away …"))`.
/// - Letting the last reference go disconnects.
public final class SerialLink: Link {
    /// The largest write accepted by default. A serial line has no packet size, so any limit works;
    /// this one keeps one write's wait for the line short (4,096 bytes take 0.36 s at 115,200 baud).
    public static let defaultMaxWriteSize = 4096

    /// `peer` is `serial:PATH`; `attMTU` is `maxWriteWithoutResponse + 3` (callers that size
    /// writes as `attMTU − 3` get the write limit); `writeCommandCeiling` is the line's ceiling,
    /// baud / 10 bytes per second (8N1); `isConnectionless` (a reset is seen only when the port
    /// vanishes, and a UART never vanishes).
    public let parameters: LinkParameters
    public let services: [GATTService]
    public let events: AsyncStream<LinkEvent>
    /// The path opened: the one asked for, or the by-id link `SerialConnector` found for it.
    public var path: String { port.path }
    /// The characteristic bytes are written to and arrive from.
    private let characteristic: CharacteristicID
    private let port: SerialPort

    private init(parameters: LinkParameters, face: DatagramGATTFace, events: AsyncStream<LinkEvent>, port: SerialPort) {
        self.parameters = parameters
        services = face.services
        characteristic = face.characteristic
        self.events = events
        self.port = port
    }

    deinit { port.close() }

    /// Opens the serial port at `path` (exclusively, raw 8N1 at `settings`; see `SerialPort`),
    /// shown as `face`. `peer` defaults to `serial:PATH`; `maxWriteSize` is at least 1. Throws what
    /// kept the port from opening; `SerialConnector` turns that into a `LinkError`.
    public static func open(_ path: String, presenting face: DatagramGATTFace, settings: SerialPortSettings = .standard,
                            as peer: PeerIdentity? = nil, generation: LinkGeneration = LinkGeneration(1),
                            maxWriteSize: Int = defaultMaxWriteSize) throws(SerialPortError) -> SerialLink {
        let limit = max(maxWriteSize, 1)
        let parameters = LinkParameters(generation: generation, peer: peer ?? PeerIdentity("serial:\(path)"),
                                        attMTU: limit + 3, maxWriteWithoutResponse: limit,
                                        writeCommandCeiling: settings.bytesPerSecond,
                                        writesAreWholeMessages: false, isConnectionless: true)
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        let characteristic = face.characteristic
        do throws(SerialPortError) {
            let port = try SerialPort.open(path, settings: settings) { event in
                switch event {
                case .received(let bytes):
                    continuation.yield(LinkEvent(generation: generation, kind: .notification(characteristic, bytes)))
                case .ended(let end):
                    continuation.yield(LinkEvent(generation: generation, kind: .disconnected(Self.reason(end, path: path))))
                    continuation.finish()
                }
            }
            return SerialLink(parameters: parameters, face: face, events: events, port: port)
        } catch {
            continuation.finish()
            throw error
        }
    }

    public func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try checkOpen()
        guard characteristic == self.characteristic else { throw .characteristicNotFound(characteristic) }
        guard bytes.count <= parameters.maxWriteWithoutResponse else {
            throw .payloadTooLarge(size: bytes.count, limit: parameters.maxWriteWithoutResponse)
        }
        switch await port.send(bytes) {
        case .success: return
        case .failure(.cancelled): throw .cancelled
        case .failure(.ended(let end)): throw .disconnected(Self.reason(end, path: port.path))
        case .failure(.refused(let error)):
            // Only a socket serving many peers refuses one message; kept total rather than trapping.
            throw .disconnected(Self.reason(.failed(error), path: port.path))
        }
    }

    /// A serial line has no write request: everything is a write without response.
    public func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try checkOpen()
        guard characteristic == self.characteristic else { throw .characteristicNotFound(characteristic) }
        throw .notSupported(characteristic, missing: .write)
    }

    /// Nothing is readable on demand: bytes arrive as notifications.
    public func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        try checkOpen()
        guard characteristic == self.characteristic else { throw .characteristicNotFound(characteristic) }
        throw .notSupported(characteristic, missing: .read)
    }

    /// Succeeds at once: what the other end sends arrives whether or not anyone subscribed.
    public func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {
        try checkOpen()
        guard characteristic == self.characteristic else { throw .characteristicNotFound(characteristic) }
    }

    /// Closes the port; `events` ends with `.disconnected(.localHostTerminated)`. Returns once the
    /// port is free for others.
    public func disconnect() async {
        await port.closeAndWait()
    }

    private func checkOpen() throws(LinkError) {
        if let end = port.end { throw .disconnected(Self.reason(end, path: port.path)) }
    }

    /// The codes a tty's read or write fails with once its device is gone: `EIO` (a USB serial
    /// port unplugged, or a pty whose other end closed), `ENXIO`, `ENODEV`.
    static let goneCodes: Set<Int32> = [EIO, ENXIO, ENODEV]

    /// The link's words for why the port ended.
    static func reason(_ end: FDPumpEnd, path: String) -> DisconnectReason {
        switch end {
        case .closed:
            return .localHostTerminated
        case .hangUp:
            return .other("the serial port \(path) went away (hang-up): the board reset or was unplugged")
        case .failed(let error) where goneCodes.contains(error.code):
            return .other("the serial port \(path) went away (\(error.call): \(error.name)): the board reset or was unplugged")
        case .failed(let error):
            return .other("the serial port \(path) failed: \(error)")
        }
    }
}
