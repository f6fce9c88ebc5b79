import DFUCore
import Synchronization
import Transport

/// A `Link` that passes everything through and keeps, in order and with the time, the Control
/// Point requests, the packets and the Control Point notifications of a Nordic transfer: the
/// record the ceiling is computed from and the measured interval is cut from.
final class NordicWireTap: ForwardingLink {
    /// Shared with the relay task (a `Mutex` cannot be captured by value).
    private final class Log: Sendable {
        let exchanges = Mutex<[NordicExchange]>([])
        func append(_ exchange: NordicExchange) { exchanges.withLock { $0.append(exchange) } }
    }

    let inner: any Link
    private let record = Log()
    let events: AsyncStream<LinkEvent>
    private let relay: Task<Void, Never>

    init(_ inner: any Link) {
        self.inner = inner
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        self.events = events
        let record = record
        // One relay task: the link's stream has one consumer, and the notification's time is taken
        // as it is handed on.
        relay = Task {
            for await event in inner.events {
                if case .notification(let source, let bytes) = event.kind, source == NordicDFUService.controlPoint {
                    let exchange = NordicExchange(kind: .notification(bytes), at: .now)
                    record.append(exchange)
                }
                continuation.yield(event)
            }
            continuation.finish()
        }
    }

    deinit { relay.cancel() }

    var exchanges: [NordicExchange] { record.exchanges.withLock { $0 } }

    func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        note(.packet(size: bytes.count))
        try await inner.writeWithoutResponse(bytes, to: characteristic)
    }

    func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        if characteristic == NordicDFUService.controlPoint { note(.request(bytes)) }
        try await inner.write(bytes, to: characteristic)
    }

    private func note(_ kind: NordicExchange.Kind) {
        record.append(NordicExchange(kind: kind, at: .now))
    }
}
