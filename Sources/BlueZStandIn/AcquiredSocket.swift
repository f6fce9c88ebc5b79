import Foundation
import Synchronization
import Transport
#if canImport(Glibc)
import Glibc
#endif
import DBusBinding

/// bluetoothd's side of an `AcquireWrite`/`AcquireNotify` socket (GC `create_sock`): a
/// `socketpair(AF_LOCAL, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC)` whose other end goes to
/// the caller as `h`.
///
/// Write direction: each datagram the caller writes is read into a 512-byte buffer (longer ones
/// are cut, as `sock_read` does) and handed to `onDatagram`; the next is read only once that
/// returned, and the caller's end has a small SO_SNDBUF, so a caller that outruns the device meets
/// EAGAIN: real back-pressure. Notify direction: `send` puts one datagram per notification with
/// MSG_DONTWAIT (dropped if full, as `notify_io_cb` does).
///
/// One thread per socket waits in `poll`; when the caller closes its end (all dups) or
/// `shutDown()` is called (link loss: the caller sees HUP/EOF), the thread calls `onClosed` and
/// closes our end. Every use of the descriptor happens under the lock and only while it is open.
final class AcquiredSocket: Sendable {
    enum Direction: Sendable { case write, notify }

    private struct State {
        var descriptor: Int32
        var closed = false
    }

    private let state: Mutex<State>
    let direction: Direction

    private init(descriptor: Int32, direction: Direction) {
        state = Mutex(State(descriptor: descriptor))
        self.direction = direction
    }

    /// bluetoothd's read buffer for one datagram (GC `sock_read`).
    static let readBufferSize = 512

    struct SocketError: Error, CustomStringConvertible {
        var description: String
    }

    /// Makes the pair and starts the thread. Returns our socket and the caller's end.
    static func open(direction: Direction, callerSendBuffer: Int?, readPause: Duration = .zero,
                     onDatagram: @escaping @Sendable ([UInt8]) async -> Void,
                     onClosed: @escaping @Sendable () async -> Void) throws -> (AcquiredSocket, DBusUnixFD) {
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            throw SocketError(description: "socketpair: errno \(errno)")
        }
        if let size = callerSendBuffer {
            var value = Int32(size)
            _ = setsockopt(pair[1], SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
        }
        let socket = AcquiredSocket(descriptor: pair[0], direction: direction)
        let caller = DBusUnixFD(owning: pair[1])
        let thread = Thread { socket.run(readPause: readPause, onDatagram: onDatagram, onClosed: onClosed) }
        thread.name = "bluez-standin-sock"
        thread.start()
        return (socket, caller)
    }

    /// Shuts both directions down: the caller's poll reports HUP, its reads EOF, its writes EPIPE
    /// (GC `btd_gatt_client_disconnected` → `io_shutdown`). The thread then ends.
    func shutDown() {
        state.withLock { state in
            guard !state.closed else { return }
            _ = Glibc.shutdown(state.descriptor, Int32(SHUT_RDWR))
        }
    }

    /// Sends one notification datagram; false when it was dropped (socket full or gone).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            let sent = bytes.withUnsafeBytes {
                Glibc.send(state.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            }
            return sent == bytes.count
        }
    }

    private func run(readPause: Duration, onDatagram: @escaping @Sendable ([UInt8]) async -> Void,
                     onClosed: @escaping @Sendable () async -> Void) {
        let descriptor = state.withLock { $0.descriptor }
        var buffer = [UInt8](repeating: 0, count: Self.readBufferSize)
        loop: while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if readPause > .zero {
                // The main loop is busy elsewhere (a blocking wait on this thread of our own).
                Thread.sleep(forTimeInterval: readPause.seconds)
            }
            // Read before looking at HUP: datagrams written before the caller closed still count.
            // Peeked, handed on, then taken: bluetoothd queues each datagram as it reads it
            // (`sock_read`), so the caller's unread count (SIOCOUTQ) drops only once it is queued.
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
            }
            switch count {
            case 0:
                break loop
            case ..<0:
                if errno == EAGAIN || errno == EINTR {
                    if poller.revents & Int16(POLLHUP) != 0 { break loop }
                    continue
                }
                break loop
            default:
                // The notify direction never carries data from the caller; ignore any.
                if direction == .write {
                    let datagram = Array(buffer[0 ..< count])
                    let done = DispatchSemaphore(value: 0)
                    Task {
                        await onDatagram(datagram)
                        done.signal()
                    }
                    done.wait()
                }
                _ = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            }
        }
        state.withLock { state in
            state.closed = true
            close(state.descriptor)
        }
        Task { await onClosed() }
    }
}
