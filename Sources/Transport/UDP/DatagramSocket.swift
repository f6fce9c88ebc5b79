import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One non-blocking UDP socket: received datagrams go to `deliver`, sends wait for writability.
/// The shared core of `UDPLink` (connected to one server) and `UDPServerSocket` (bound, any sender).
/// It knows datagrams, not SMP.
///
/// Receive side: a `DispatchSourceRead` on one serial queue, not a thread of our own. libdispatch's
/// epoll loop wakes the handler when a datagram is waiting and when the socket holds an error (an
/// ICMP port-unreachable becomes `ECONNREFUSED` on the next `recv` of a connected socket). The handler
/// reads until would-block and hands each datagram, in arrival order, to `deliver`, which yields into
/// an `AsyncStream` continuation (Sendable, no `Task` hop that could reorder). A thread would need a
/// blocking `poll` loop, a self-pipe to wake it for `close`, and a join: more code the compiler
/// cannot check. Writability, needed only while the kernel's send buffer is full, uses a
/// `DispatchSourceWrite` that exists only while sends are queued.
///
/// Concurrency: every mutable field sits in one `Mutex`, so the class is `Sendable` without
/// `@unchecked`. Syscalls and `deliver` run with the lock held; they never block (the socket is
/// non-blocking and `deliver` only yields). The descriptor is closed in the last source's cancel
/// handler, which libdispatch runs after that source's event handler has returned and the fd has
/// left epoll; every other use first checks, under the lock, that the socket has not ended. So no
/// call ever touches a closed descriptor, or one the process has since reused.
///
/// The sources' handlers hold this object until they are cancelled: an owner must call `close()`
/// (its `deinit` does).
final class DatagramSocket: Sendable {
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
        /// This one datagram could not be sent; the socket stays open. Unconnected sockets only:
        /// a connected socket ends on any send error, since it has no other peer to serve.
        case refused(SystemCallError)
    }

    /// The bound address (with the port the kernel chose for port 0).
    let localAddress: SocketAddress
    /// The fixed peer of a connected socket; nil for a server socket, which takes any sender.
    let remoteAddress: SocketAddress?
    private let descriptor: Int32
    private let queue: DispatchQueue
    private let deliver: @Sendable (Event) -> Void
    private let state: Mutex<State>

    /// The most datagrams one wake-up reads before yielding the queue; the source fires again at
    /// once if more are waiting, so a flood cannot starve the queue's other work (writability).
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
        var readSource: (any DispatchSourceRead)?
        /// Armed only while `pending` is not empty.
        var writeSource: (any DispatchSourceWrite)?
        /// Sources whose cancel handler has not run yet; the descriptor closes when this reaches 0.
        var liveSources = 0
        var descriptorClosed = false
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

    private init(descriptor: Int32, localAddress: SocketAddress, remoteAddress: SocketAddress?,
                 deliver: @escaping @Sendable (Event) -> Void) {
        self.descriptor = descriptor
        self.localAddress = localAddress
        self.remoteAddress = remoteAddress
        self.deliver = deliver
        queue = DispatchQueue(label: "dfu.udp.\(remoteAddress ?? localAddress)")
        state = Mutex(State())
    }

    /// Opens a socket bound to `local` (if given) and connected to `remote` (if given); the family
    /// is that of `remote`, else of `local`. Events start at once.
    static func open(bindingTo local: SocketAddress?, connectingTo remote: SocketAddress?,
                     deliver: @escaping @Sendable (Event) -> Void) throws(SystemCallError) -> DatagramSocket {
        let family = (remote ?? local)?.family ?? AF_INET
        let descriptor = try SocketSyscall.openDatagramSocket(family: family)
        do throws(SystemCallError) {
            if let local { try SocketSyscall.bindSocket(descriptor, to: local) }
            if let remote { try SocketSyscall.connectSocket(descriptor, to: remote) }
            let socket = DatagramSocket(descriptor: descriptor, localAddress: try SocketSyscall.localAddress(descriptor),
                                        remoteAddress: remote, deliver: deliver)
            socket.startReceiving()
            return socket
        } catch {
            SocketSyscall.closeSocket(descriptor)
            throw error
        }
    }

    deinit {
        // Reached only when no source holds us: closed already, or never started.
        state.withLock { state in
            if !state.descriptorClosed { SocketSyscall.closeSocket(descriptor) }
        }
    }

    /// Why the socket ended; nil while it is open.
    var end: End? { state.withLock { $0.end } }

    /// Ends the socket: queued sends fail with `.ended(.closed)`, `deliver` gets `.ended(.closed)`.
    /// Calling it again does nothing.
    func close() {
        state.withLock { finish(.closed, state: &$0) }
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
                    armWriteSource(state: &state)
                }
            }
        } onCancel: {
            state.withLock { state in
                guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return }
                state.pending.remove(at: index).continuation.resume(returning: .failure(.cancelled))
                if state.pending.isEmpty { disarmWriteSource(state: &state) }
            }
        }
    }

    // MARK: - On the lock

    private func startReceiving() {
        state.withLock { state in
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [self] in receiveAvailable() }
            source.setCancelHandler { [self] in sourceCancelled() }
            state.readSource = source
            state.liveSources += 1
            source.resume()
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
                    if remoteAddress == nil, Self.concernsOneSender(error) { continue }
                    finish(.failed(error), state: &state)
                    return
                }
            }
        }
    }

    /// ICMP errors about one earlier destination; a server socket keeps serving everyone else.
    private static func concernsOneSender(_ error: SystemCallError) -> Bool {
        [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ECONNRESET].contains(error.code)
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
            disarmWriteSource(state: &state)
        }
    }

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

    private func armWriteSource(state: inout State) {
        guard state.writeSource == nil else { return }
        let source = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [self] in drainPending() }
        source.setCancelHandler { [self] in sourceCancelled() }
        state.writeSource = source
        state.liveSources += 1
        source.resume()
    }

    /// libdispatch keeps a cancelled source alive until its cancel handler has run, so the
    /// reference can go now.
    private func disarmWriteSource(state: inout State) {
        state.writeSource?.cancel()
        state.writeSource = nil
    }

    private func sourceCancelled() {
        state.withLock { state in
            state.liveSources -= 1
            closeDescriptorIfIdle(state: &state)
        }
    }

    private func finish(_ end: End, state: inout State) {
        guard state.end == nil else { return }
        state.end = end
        let waiting = state.pending
        state.pending = []
        for send in waiting { send.continuation.resume(returning: .failure(.ended(end))) }
        state.readSource?.cancel()
        state.readSource = nil
        disarmWriteSource(state: &state)
        deliver(.ended(end))
        closeDescriptorIfIdle(state: &state)
    }

    private func closeDescriptorIfIdle(state: inout State) {
        guard state.end != nil, state.liveSources == 0, !state.descriptorClosed else { return }
        state.descriptorClosed = true
        SocketSyscall.closeSocket(descriptor)
    }
}
