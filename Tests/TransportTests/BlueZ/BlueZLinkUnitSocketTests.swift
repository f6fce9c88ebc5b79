#if canImport(Glibc)
import Glibc
#endif
@testable import BlueZTransport
@testable import DBusBinding
import Foundation
import Testing
@testable import Transport

/// The acquired-fd socket against a socketpair made the way bluetoothd makes it (AF_UNIX,
/// SOCK_SEQPACKET, non-blocking): bluetoothd's side is played by the test.
struct BlueZLinkUnitSocketTests {
    /// (our end wrapped as the bus would hand it over, bluetoothd's end).
    private static func pair() throws -> (DBusUnixFD, Int32) {
        let (ours, theirs) = try SeqPacketPair.make()
        return (DBusUnixFD(owning: ours), theirs)
    }

    private static func failure(_ result: Result<Void, BlueZAcquiredSocket.SendFailure>) -> BlueZAcquiredSocket.SendFailure? {
        if case .failure(let failure) = result { return failure }
        return nil
    }

    private static func events(of socket: @escaping (@escaping @Sendable (BlueZAcquiredSocket.Event) -> Void) throws -> BlueZAcquiredSocket)
        rethrows -> (BlueZAcquiredSocket, AsyncStream<BlueZAcquiredSocket.Event>) {
        let (stream, continuation) = AsyncStream.makeStream(of: BlueZAcquiredSocket.Event.self)
        let made = try socket { event in
            continuation.yield(event)
            if case .ended = event { continuation.finish() }
        }
        return (made, stream)
    }

    @Test func writesLeaveWholeAndInCallOrderThroughAFullSocketBuffer() async throws {
        let (ours, theirs) = try Self.pair()
        defer { close(theirs) }
        let (socket, _) = try Self.events { try BlueZAcquiredSocket.adopt(ours, mtu: 517, deliver: $0) }
        defer { socket.close() }
        // Far more than a unix socket buffer holds: the sender must wait for the reader.
        let count = 2_000
        let reading = Task { await SeqPacketPair.readDatagrams(theirs, count: count) }
        for index in 0..<count {
            let value = [UInt8(index >> 8), UInt8(index & 0xFF)] + [UInt8](repeating: 0xA5, count: 508)
            #expect(Self.failure(await socket.send(value)) == nil)
        }
        let received = await reading.value
        #expect(received.count == count)
        #expect(received.allSatisfy { $0.count == 510 })
        #expect(received.enumerated().allSatisfy { Int($0.element[0]) << 8 | Int($0.element[1]) == $0.offset })
    }

    @Test func notificationsArriveInOrderThenTheHangUpEndsTheSocket() async throws {
        let (ours, theirs) = try Self.pair()
        let (socket, events) = try Self.events { try BlueZAcquiredSocket.adopt(ours, mtu: 517, deliver: $0) }
        defer { socket.close() }
        let values: [[UInt8]] = [[1], [2, 3], [UInt8](repeating: 7, count: 514)]
        for value in values {
            _ = value.withUnsafeBytes { send(theirs, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        close(theirs)  // bluetoothd shuts the socket when the link drops
        var received: [[UInt8]] = []
        var end: BlueZAcquiredSocket.End?
        for await event in events {
            switch event {
            case .datagram(let bytes): received.append(bytes)
            case .ended(let why): end = why
            }
        }
        #expect(received == values)
        #expect(end == .hangUp)
        #expect(Self.failure(await socket.send([1])) == .ended(.hangUp))
    }

    @Test func closingFailsWaitingSendsAndReportsClosed() async throws {
        let (ours, theirs) = try Self.pair()
        defer { close(theirs) }
        let (socket, events) = try Self.events { try BlueZAcquiredSocket.adopt(ours, mtu: 23, deliver: $0) }
        #expect(socket.mtu == 23)
        socket.close()
        var ends: [BlueZAcquiredSocket.End] = []
        for await case .ended(let end) in events { ends.append(end) }
        #expect(ends == [.closed])
        #expect(Self.failure(await socket.send([1])) == .ended(.closed))
    }
}
