#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The socket end bluetoothd hands out for `AcquireWrite` / `AcquireNotify`: AF_UNIX SOCK_SEQPACKET,
/// non-blocking, one ATT value per datagram (bluez-dbus.md §1.5).
///
/// One thread of our own per socket blocks in `poll` on it and a wake-up channel, so nothing blocks
/// the cooperative pool: it reads notifications (≤ 1024 bytes each, more than the largest ATT
/// value) in arrival order and hands them to `deliver`, notices the hang-up bluetoothd causes on
/// link loss (POLLHUP / EOF), and, while sends are queued, waits for POLLOUT: a full socket buffer
/// suspends the sender (back-pressure), never sleeps, never drops. Same locking discipline as
/// `DatagramSocket`: state in one `Mutex`, non-blocking syscalls under it, only the thread closes
/// the descriptors, after it left `poll`.
final class BlueZAcquiredSocket: Sendable {
    enum Event: Sendable {
        case datagram([UInt8])
        /// The last event.
        case ended(End)
    }

    enum End: Sendable, Hashable {
        /// `close()` was called.
        case closed
        /// bluetoothd closed its end (EOF, POLLHUP, EPIPE, ECONNRESET): the link is gone.
        case hangUp
        case failed(SystemCallError)
    }

    enum SendFailure: Error, Sendable, Hashable {
        case ended(End)
        case cancelled
    }

    /// The ATT MTU bluetoothd reported with the fd.
    let mtu: Int
    private let descriptor: Int32
    private let wakeup: (watch: Int32, signal: Int32)
    private let deliver: @Sendable (Event) -> Void
    private let state = Mutex(State())

    static let receiveBufferSize = 1024

    private struct PendingSend {
        let id: UInt64
        let bytes: [UInt8]
        let continuation: CheckedContinuation<Result<Void, SendFailure>, Never>
    }

    private struct State {
        var end: End?
        var descriptorsClosed = false
        var pending: [PendingSend] = []
        var lastSendID: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: BlueZAcquiredSocket.receiveBufferSize)
    }

    private init(descriptor: Int32, wakeup: (watch: Int32, signal: Int32), mtu: Int,
                 deliver: @escaping @Sendable (Event) -> Void) {
        self.descriptor = descriptor
        self.wakeup = wakeup
        self.mtu = mtu
        self.deliver = deliver
    }

    /// Takes a private duplicate of `fd` (so closing ours is ours to decide; the caller drops its
    /// `DBusUnixFD`, and bluetoothd sees the release once every copy is closed) and starts the thread.
    static func adopt(_ fd: DBusUnixFD, mtu: Int, deliver: @escaping @Sendable (Event) -> Void)
        throws(SystemCallError) -> BlueZAcquiredSocket {
        let descriptor = fcntl(fd.descriptor, F_DUPFD_CLOEXEC, 0)
        guard descriptor >= 0 else { throw SystemCallError(call: "fcntl", code: errno) }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
        let wakeup: (watch: Int32, signal: Int32)
        do throws(SystemCallError) {
            wakeup = try SocketSyscall.openWakeupChannel()
        } catch {
            SocketSyscall.closeSocket(descriptor)
            throw error
        }
        let socket = BlueZAcquiredSocket(descriptor: descriptor, wakeup: wakeup, mtu: mtu, deliver: deliver)
        try SocketSyscall.startThread { socket.run() }
        return socket
    }

    deinit {
        state.withLock { closeDescriptors(state: &$0) }
    }

    var end: End? { state.withLock { $0.end } }

    /// Ends the socket (queued sends fail with `.ended(.closed)`); the thread closes the fd.
    func close() {
        state.withLock { finish(.closed, state: &$0) }
    }

    /// Sends one datagram; suspends while the socket buffer is full; sends leave in call order.
    func send(_ bytes: [UInt8]) async -> Result<Void, SendFailure> {
        if Task.isCancelled { return .failure(.cancelled) }
        let id = state.withLock { state in
            state.lastSendID += 1
            return state.lastSendID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if let end = state.end { return continuation.resume(returning: .failure(.ended(end))) }
                    if Task.isCancelled { return continuation.resume(returning: .failure(.cancelled)) }
                    if state.pending.isEmpty {
                        switch attempt(bytes, state: &state) {
                        case .some(.success): return continuation.resume(returning: .success(()))
                        case .some(.failure(let failure)): return continuation.resume(returning: .failure(failure))
                        case nil: break
                        }
                    }
                    state.pending.append(PendingSend(id: id, bytes: bytes, continuation: continuation))
                    if state.pending.count == 1 { SocketSyscall.wake(wakeup.signal) }
                }
            }
        } onCancel: {
            state.withLock { state in
                guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return }
                state.pending.remove(at: index).continuation.resume(returning: .failure(.cancelled))
            }
        }
    }

    // MARK: - The socket's thread

    private func run() {
        while true {
            let wantsWritable: Bool? = state.withLock { state in
                if state.end != nil {
                    closeDescriptors(state: &state)
                    return nil
                }
                return !state.pending.isEmpty
            }
            guard let wantsWritable else { return }
            var watched = [
                pollfd(fd: descriptor, events: Int16(POLLIN) | (wantsWritable ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wakeup.watch, events: Int16(POLLIN), revents: 0),
            ]
            let count = nfds_t(watched.count)
            if poll(&watched, count, -1) < 0 {
                let code = errno
                if code == EINTR { continue }
                state.withLock { finish(.failed(SystemCallError(call: "poll", code: code)), state: &$0) }
                continue
            }
            if watched[1].revents != 0 { SocketSyscall.clearWakeups(wakeup.watch) }
            let events = Int32(watched[0].revents)
            if events & POLLNVAL != 0 {
                state.withLock { finish(.failed(SystemCallError(call: "poll", code: EBADF)), state: &$0) }
                continue
            }
            if events & (POLLIN | POLLHUP | POLLERR) != 0 { receive(hungUp: events & (POLLHUP | POLLERR) != 0) }
            if events & POLLOUT != 0 { drainPending() }
        }
    }

    /// Reads what is queued; after a hang-up (or EOF) the socket ends once the queue is empty.
    private func receive(hungUp: Bool) {
        state.withLock { state in
            for _ in 0..<64 {
                guard state.end == nil else { return }
                let size = state.buffer.count
                let outcome: SyscallOutcome<Int>
                do throws(SystemCallError) {
                    outcome = try SocketSyscall.syscall("recv") {
                        state.buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, size, 0) }
                    }
                } catch {
                    let end: End = [ECONNRESET, EPIPE].contains(error.code) ? .hangUp : .failed(error)
                    return finish(end, state: &state)
                }
                switch outcome {
                case .wouldBlock:
                    if hungUp { finish(.hangUp, state: &state) }
                    return
                case .done(0) where hungUp:
                    return finish(.hangUp, state: &state)
                case .done(let count):
                    deliver(.datagram(Array(state.buffer.prefix(count))))
                }
            }
        }
    }

    private func drainPending() {
        state.withLock { state in
            while let head = state.pending.first {
                switch attempt(head.bytes, state: &state) {
                case nil: return
                case .some(.success):
                    state.pending.removeFirst()
                    head.continuation.resume(returning: .success(()))
                case .some(.failure):
                    return  // `finish` answered every queued send.
                }
            }
        }
    }

    // MARK: - Under the lock

    /// nil: would block.
    private func attempt(_ bytes: [UInt8], state: inout State) -> Result<Void, SendFailure>? {
        do throws(SystemCallError) {
            switch try SocketSyscall.sendDatagram(descriptor, bytes, to: nil) {
            case .done: return .success(())
            case .wouldBlock: return nil
            }
        } catch {
            let end: End = [EPIPE, ECONNRESET, ENOTCONN].contains(error.code) ? .hangUp : .failed(error)
            finish(end, state: &state)
            return .failure(.ended(end))
        }
    }

    private func finish(_ end: End, state: inout State) {
        guard state.end == nil else { return }
        state.end = end
        let waiting = state.pending
        state.pending = []
        for send in waiting { send.continuation.resume(returning: .failure(.ended(end))) }
        deliver(.ended(end))
        SocketSyscall.wake(wakeup.signal)
    }

    private func closeDescriptors(state: inout State) {
        guard !state.descriptorsClosed else { return }
        state.descriptorsClosed = true
        SocketSyscall.closeSocket(descriptor)
        SocketSyscall.closeSocket(wakeup.watch)
        SocketSyscall.closeSocket(wakeup.signal)
    }
}
