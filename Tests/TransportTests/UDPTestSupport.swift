import Harness
import Testing
import Transport
import UDPTransport

/// Shared pieces of the UDP tests: an echo server, bounded waits, and the loopback probe.
enum UDPTestSupport {
    /// Runs `body` and gives up after `limit`: events are awaited, never slept for. The bound only
    /// turns a hang into a failure, so it is long: in the parallel suite a busy machine can hold a
    /// healthy test back for tens of seconds.
    static func within<Value: Sendable>(_ limit: Duration = HangGuard.limit,
                                        _ body: @escaping @Sendable () async -> Value) async throws -> Value {
        try await HangGuard.within("the UDP exchange", limit, body)
    }

    /// A link's events until `notifications` notifications have come, or the stream ended.
    static func events(of link: any Link, notifications: Int = 0,
                       within limit: Duration = .seconds(60)) async throws -> [LinkEvent] {
        try await within(limit) {
            var events: [LinkEvent] = []
            var seen = 0
            for await event in link.events {
                events.append(event)
                if case .notification = event.kind {
                    seen += 1
                    if seen == notifications { break }
                }
            }
            return events
        }
    }

    /// The notification payloads among `events`.
    static func payloads(_ events: [LinkEvent]) -> [[UInt8]] {
        events.compactMap { event in
            if case .notification(_, let bytes) = event.kind { return bytes }
            return nil
        }
    }

    /// Whether this machine can bind UDP on `::1` (containers often run without IPv6).
    static var hasIPv6Loopback: Bool {
        (try? UDPServerSocket.bind(to: .loopbackV6(port: 0))) != nil
    }

    /// A port on which nothing listens: bound by the kernel's choice, then released.
    static func unusedPort() async throws -> SocketAddress {
        let socket = try UDPServerSocket.bind(to: .loopbackV4(port: 0))
        let address = socket.localAddress
        await socket.close()
        return address
    }

    /// A payload of `size` bytes told apart by `index`: the index (big-endian), then a pattern.
    static func numbered(_ index: Int, size: Int) -> [UInt8] {
        (0..<size).map { offset in
            offset < 2 ? UInt8(truncatingIfNeeded: index >> (8 * (1 - offset))) : UInt8(truncatingIfNeeded: index &+ offset)
        }
    }
}

/// A UDP server that sends every datagram back to its sender.
final class UDPEchoServer: Sendable {
    let socket: UDPServerSocket
    private let loop: Task<Void, Never>

    var address: SocketAddress { socket.localAddress }

    init(at address: SocketAddress = .loopbackV4(port: 0)) throws {
        let socket = try UDPServerSocket.bind(to: address)
        self.socket = socket
        loop = Task {
            for await datagram in socket.datagrams {
                try? await socket.send(datagram.bytes, to: datagram.sender)
            }
        }
    }

    deinit { loop.cancel() }  // the loop's end lets the socket go, which closes it
}

extension DatagramGATTFace {
    /// A face for Transport's own tests, which know no DFU protocol.
    static let test = DatagramGATTFace(service: ServiceID(short: 0xFFF0), characteristic: CharacteristicID(short: 0xFFF1))
}
