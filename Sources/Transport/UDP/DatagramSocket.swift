import Synchronization

/// One non-blocking UDP socket: received datagrams go to `deliver`, sends wait for writability.
/// The shared core of `UDPLink` (connected to one server) and `UDPServerSocket` (bound, any sender).
/// It knows datagrams, not SMP.
///
/// Receive side: one thread of our own per socket, blocked in `poll` on the socket and a wake-up
/// channel. It reads datagrams until would-block and hands each, in arrival order, to `deliver`,
/// which yields into an `AsyncStream` continuation (Sendable; no `Task` hop that could reorder).
/// Not a `DispatchSourceRead`: on Linux libdispatch merges only EPOLLIN/EPOLLOUT into its sources
/// (`_dispatch_event_merge_fd`, swift-corelibs-libdispatch `src/event/event_epoll.c`), and an ICMP
/// port-unreachable raises only EPOLLERR on a connected UDP socket, so a source would never see
/// "nothing listens" (and its re-armed one-shot would keep waking the manager thread). `poll`
/// reports `POLLERR`, and the next `recv` turns it into `ECONNREFUSED`. The same loop also waits
/// for writability (`POLLOUT`) while sends are queued.
///
/// Concurrency: every mutable field sits in one `Mutex`, so the class is `Sendable` without
/// `@unchecked`. Syscalls and `deliver` run with the lock held; none blocks (the socket is
/// non-blocking, `deliver` only yields); only `poll` blocks, outside the lock. The socket ends under
/// the lock, and only the receive thread closes the descriptors, under the lock, after it has left
/// `poll`; every other use first checks, under the lock, that the socket has not ended. So no call
/// touches a closed descriptor, or one the process has since reused.
///
/// The receive thread holds this object until the socket ends: an owner must call `close()` (its
/// `deinit` does).
final class DatagramSocket: Sendable {
    /// Whom the socket talks to.
    enum Role: Sendable {
        /// Only `server`: sends need no address, the kernel drops datagrams from anyone else, and
        /// ICMP errors come back as `recv`/`send` errors.
        case connected(to: SocketAddress)
        /// Anyone who sends to `local` (port 0: a port the kernel picks).
        case bound(to: SocketAddress)
    }

    enum Event: Sendable {
        case datagram([UInt8], from: SocketAddress)
        /// The last event: the socket is closed.
        case ended(End)
    }

    /// Why the socket ended.
    enum End: Sendable, Hashable {
        /// `close()` was called.
        case closed
        /// A receive or send failed for good; for a connected socket, `ECONNREFUSED` means an ICMP
        /// port-unreachable came back: nothing listens at the peer's port.
        case failed(SystemCallError)
    }

    enum SendFailure: Error, Sendable, Hashable {
        /// The socket ended before the datagram left (or the send ended it).
        case ended(End)
        /// The caller's task was cancelled while the datagram waited; it was not sent.
        case cancelled
        /// This one datagram could not be sent; the socket stays open. Bound sockets only: a
        /// connected socket ends on any send error, since it has no other peer to serve.
        case refused(SystemCallError)
    }

    /// The bound address (with the port the kernel chose for port 0).
    let localAddress: SocketAddress
    /// The fixed peer of a connected socket; nil for a bound one, which takes any sender.
    let remoteAddress: SocketAddress?
    private let descriptor: Int32
    private let wakeup: (watch: Int32, signal: Int32)
    private let deliver: @Sendable (Event) -> Void
    private let state: Mutex<State>

    /// The most datagrams one wake-up reads before the loop looks at writability again, so a flood
    /// of replies cannot starve queued sends.
    private static let datagramsPerWakeup = 64
    /// More than any UDP payload (65,507 bytes over IPv4, 65,527 over IPv6), so none is cut.
    private static let receiveBufferSize = 65_536

    private struct PendingSend {
        let id: UInt64
        let bytes: [UInt8]
        let destination: SocketAddress?
        let continuation: CheckedContinuation<Result<Void, SendFailure>, Never>
    }

    private struct State {
        /// Nil while the socket is open.
        var end: End?
        var descriptorsClosed = false
        /// `closeAndWait` callers, resumed once the descriptors are closed.
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        /// Sends waiting for writability, oldest first: they leave in call order.
        var pending: [PendingSend] = []
        var lastSendID: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: DatagramSocket.receiveBufferSize)
    }

    private enum Attempt {
        case sent
        case wouldBlock
        case failed(SendFailure)
    }

    private init(descriptor: Int32, wakeup: (watch: Int32, signal: Int32), localAddress: SocketAddress,
                 remoteAddress: SocketAddress?, deliver: @escaping @Sendable (Event) -> Void) {
        self.descriptor = descriptor
        self.wakeup = wakeup
        self.localAddress = localAddress
        self.remoteAddress = remoteAddress
        self.deliver = deliver
        state = Mutex(State())
    }

    /// Opens the socket and starts its receive thread; events start at once.
    static func open(_ role: Role, deliver: @escaping @Sendable (Event) -> Void) throws(SystemCallError)
        -> DatagramSocket {
        let family: Int32
        switch role {
        case .connected(let address), .bound(let address): family = address.family
        }
        let descriptor = try SocketSyscall.openDatagramSocket(family: family)
        let wakeup: (watch: Int32, signal: Int32)
        do throws(SystemCallError) {
            wakeup = try SocketSyscall.openWakeupChannel()
        } catch {
            SocketSyscall.closeSocket(descriptor)
            throw error
        }
        let remote: SocketAddress?
        let local: SocketAddress
        do throws(SystemCallError) {
            switch role {
            case .connected(let server):
                try SocketSyscall.connectSocket(descriptor, to: server)
                remote = server
            case .bound(let address):
                try SocketSyscall.bindSocket(descriptor, to: address)
                remote = nil
            }
            local = try SocketSyscall.localAddress(descriptor)
        } catch {
            for open in [descriptor, wakeup.watch, wakeup.signal] { SocketSyscall.closeSocket(open) }
            throw error
        }
        // From here the object owns the descriptors: its deinit closes them if no thread runs.
        let socket = DatagramSocket(descriptor: descriptor, wakeup: wakeup, localAddress: local,
                                    remoteAddress: remote, deliver: deliver)
        try SocketSyscall.startThread { socket.runReceiveLoop() }
        return socket
    }

    deinit {
        // Reached only when the receive thread has let go: descriptors closed already, or never started.
        state.withLock { closeDescriptors(state: &$0) }
    }

    /// Why the socket ended; nil while it is open.
    var end: End? { state.withLock { $0.end } }

    /// Ends the socket: queued sends fail with `.ended(.closed)`, `deliver` gets `.ended(.closed)`,
    /// the receive thread wakes, closes the descriptors and exits. Calling it again does nothing.
    func close() {
        state.withLock { finish(.closed, state: &$0) }
    }

    /// `close()`, then waits until the receive thread has closed the descriptors (microseconds), so
    /// the port is free for others when this returns.
    func closeAndWait() async {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                finish(.closed, state: &state)
                if state.descriptorsClosed {
                    continuation.resume()
                } else {
                    state.closeWaiters.append(continuation)
                }
            }
        }
    }

    /// Sends one datagram (to the connected peer when `destination` is nil). Returns once the kernel
    /// took it; suspends while the send buffer is full, and sends in call order.
    func send(_ bytes: [UInt8], to destination: SocketAddress?) async -> Result<Void, SendFailure> {
        if Task.isCancelled { return .failure(.cancelled) }
        // Fast path: nothing queued and the kernel takes it now; no continuation needed.
        let first: Attempt? = state.withLock { state in
            if let end = state.end { return .failed(.ended(end)) }
            guard state.pending.isEmpty else { return nil }
            return attempt(bytes, to: destination, state: &state)
        }
        switch first {
        case .sent: return .success(())
        case .failed(let failure): return .failure(failure)
        case .wouldBlock, nil: break
        }
        let id = state.withLock { state in
            state.lastSendID += 1
            return state.lastSendID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if let end = state.end { return continuation.resume(returning: .failure(.ended(end))) }
                    // Checked under the lock: a cancellation handler that ran before found nothing to cancel.
                    if Task.isCancelled { return continuation.resume(returning: .failure(.cancelled)) }
                    if state.pending.isEmpty {
                        switch attempt(bytes, to: destination, state: &state) {
                        case .sent: return continuation.resume(returning: .success(()))
                        case .failed(let failure): return continuation.resume(returning: .failure(failure))
                        case .wouldBlock: break
                        }
                    }
                    state.pending.append(PendingSend(id: id, bytes: bytes, destination: destination,
                                                     continuation: continuation))
                    // The receive thread now has to wait for POLLOUT as well.
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

    // MARK: - The receive thread

    private func runReceiveLoop() {
        while true {
            // Read under the lock; a send queued after this wakes the poll below through the channel.
            let wantsWritable: Bool? = state.withLock { state in
                if state.end != nil {
                    closeDescriptors(state: &state)
                    return nil
                }
                return !state.pending.isEmpty
            }
            guard let wantsWritable else { return }
            let readiness: SocketSyscall.Readiness
            do throws(SystemCallError) {
                readiness = try SocketSyscall.waitForReadiness(descriptor, writable: wantsWritable, wakeup: wakeup.watch)
            } catch {
                state.withLock { finish(.failed(error), state: &$0) }
                continue
            }
            if readiness.woken { SocketSyscall.clearWakeups(wakeup.watch) }
            if readiness.invalid {
                state.withLock { finish(.failed(SystemCallError(call: "poll", code: SystemCallError.badDescriptor)), state: &$0) }
                continue
            }
            if readiness.readable { receiveAvailable() }
            if readiness.writable { drainPending() }
        }
    }

    private func receiveAvailable() {
        state.withLock { state in
            for _ in 0..<Self.datagramsPerWakeup {
                guard state.end == nil else { return }
                do throws(SystemCallError) {
                    switch try SocketSyscall.receiveDatagram(descriptor, into: &state.buffer) {
                    case .wouldBlock:
                        return
                    case .done(let received):
                        // A sender of another family cannot reach an IPv4/IPv6 socket; skip rather than trap.
                        guard let sender = received.sender ?? remoteAddress else { continue }
                        deliver(.datagram(Array(state.buffer.prefix(received.count)), from: sender))
                    }
                } catch {
                    // A bound socket serves many senders; an ICMP error about one must not end it.
                    if remoteAddress == nil, error.concernsOneDestination { continue }
                    finish(.failed(error), state: &state)
                    return
                }
            }
        }
    }

    private func drainPending() {
        state.withLock { state in
            while let head = state.pending.first {
                switch attempt(head.bytes, to: head.destination, state: &state) {
                case .sent:
                    state.pending.removeFirst()
                    head.continuation.resume(returning: .success(()))
                case .wouldBlock:
                    return
                case .failed(.ended):
                    return  // `finish` has answered every queued send, this one included.
                case .failed(let failure):
                    state.pending.removeFirst()
                    head.continuation.resume(returning: .failure(failure))
                }
            }
        }
    }

    // MARK: - Under the lock

    private func attempt(_ bytes: [UInt8], to destination: SocketAddress?, state: inout State) -> Attempt {
        do throws(SystemCallError) {
            switch try SocketSyscall.sendDatagram(descriptor, bytes, to: destination) {
            case .done: return .sent
            case .wouldBlock: return .wouldBlock
            }
        } catch {
            guard remoteAddress != nil else { return .failed(.refused(error)) }
            finish(.failed(error), state: &state)
            return .failed(.ended(.failed(error)))
        }
    }

    private func finish(_ end: End, state: inout State) {
        guard state.end == nil else { return }
        state.end = end
        let waiting = state.pending
        state.pending = []
        for send in waiting { send.continuation.resume(returning: .failure(.ended(end))) }
        deliver(.ended(end))
        // Open until the receive thread closes it, after it left `poll`.
        SocketSyscall.wake(wakeup.signal)
    }

    private func closeDescriptors(state: inout State) {
        guard !state.descriptorsClosed else { return }
        state.descriptorsClosed = true
        SocketSyscall.closeSocket(descriptor)
        SocketSyscall.closeSocket(wakeup.watch)
        SocketSyscall.closeSocket(wakeup.signal)
        let waiters = state.closeWaiters
        state.closeWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}
