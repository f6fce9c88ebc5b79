/// Everything an `FDPump` changes, and the non-blocking syscalls that change it. Used only inside
/// the pump's `Mutex`, so the socket ends, sends are answered and events are delivered in one
/// order that every thread agrees on.
struct FDPumpState {
    /// A send waiting for writability; they leave oldest first, in call order.
    struct PendingSend {
        let id: UInt64
        let bytes: [UInt8]
        let destination: SocketAddress?
        let continuation: CheckedContinuation<Result<Void, FDPumpSendFailure>, Never>
    }

    enum Attempt {
        case sent
        case wouldBlock
        case failed(FDPumpSendFailure)
    }

    /// The most messages one wake-up reads before the thread looks at writability again, so a
    /// flood of incoming messages cannot starve queued sends.
    static let messagesPerWakeup = 64

    let descriptor: Int32
    let wakeup: (watch: Int32, signal: Int32)
    let policy: FDPumpPolicy
    let deliver: @Sendable (FDPumpEvent) -> Void
    /// Nil while the pump is open.
    private(set) var end: FDPumpEnd?
    private(set) var descriptorsClosed = false
    /// `closeAndWait` callers, resumed once the descriptors are closed.
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    private var pending: [PendingSend] = []
    private var lastSendID: UInt64 = 0
    private var buffer: [UInt8]

    init(descriptor: Int32, wakeup: (watch: Int32, signal: Int32), policy: FDPumpPolicy,
         deliver: @escaping @Sendable (FDPumpEvent) -> Void) {
        self.descriptor = descriptor
        self.wakeup = wakeup
        self.policy = policy
        self.deliver = deliver
        buffer = [UInt8](repeating: 0, count: max(policy.receiveBufferSize, 1))
    }

    /// Sends are queued, so the thread must wait for `POLLOUT` too.
    var wantsWritable: Bool { !pending.isEmpty }

    /// Bytes sent that the peer has not read: still queued here, or unread in the kernel. nil once
    /// ended (the descriptor may be gone), or when the kernel cannot say.
    var unreadByPeer: Int? {
        guard end == nil, let kernel = SocketSyscall.unreadOutput(descriptor) else { return nil }
        return pending.reduce(kernel) { $0 + $1.bytes.count }
    }

    mutating func nextSendID() -> UInt64 {
        lastSendID += 1
        return lastSendID
    }

    /// Answers `continuation` now if it can (ended, cancelled, or sent at once with nothing ahead
    /// of it); otherwise queues the send and, if it is the first, wakes the thread to watch `POLLOUT`.
    mutating func enqueue(_ send: PendingSend) {
        if let end { return send.continuation.resume(returning: .failure(.ended(end))) }
        // Checked under the lock: a cancellation handler that ran before found nothing to cancel.
        if Task.isCancelled { return send.continuation.resume(returning: .failure(.cancelled)) }
        if pending.isEmpty {
            switch attempt(send.bytes, to: send.destination) {
            case .sent: return send.continuation.resume(returning: .success(()))
            case .failed(let failure): return send.continuation.resume(returning: .failure(failure))
            case .wouldBlock: break
            }
        }
        pending.append(send)
        if pending.count == 1 { SocketSyscall.wake(wakeup.signal) }
    }

    mutating func cancelSend(_ id: UInt64) {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return }
        pending.remove(at: index).continuation.resume(returning: .failure(.cancelled))
    }

    mutating func attempt(_ bytes: [UInt8], to destination: SocketAddress?) -> Attempt {
        do throws(SystemCallError) {
            switch try SocketSyscall.sendDatagram(descriptor, bytes, to: destination) {
            case .done: return .sent
            case .wouldBlock: return .wouldBlock
            }
        } catch {
            if policy.servesManyPeers { return .failed(.refused(error)) }
            let end = policy.end(after: error)
            finish(end)
            return .failed(.ended(end))
        }
    }

    /// Reads what is queued, up to `messagesPerWakeup`. After a hang-up the pump ends once the
    /// queue is empty (would-block) or EOF (0 bytes) is read; a 0-byte read before one is an
    /// empty datagram, unless the policy says such a read is the end of the stream.
    mutating func receiveAvailable(hungUp: Bool) {
        for _ in 0..<Self.messagesPerWakeup {
            guard end == nil else { return }
            let outcome: SyscallOutcome<SocketSyscall.Received>
            do throws(SystemCallError) {
                outcome = try SocketSyscall.receiveDatagram(descriptor, into: &buffer)
            } catch {
                if policy.servesManyPeers, error.concernsOneDestination { continue }
                return finish(policy.end(after: error))
            }
            switch outcome {
            case .wouldBlock:
                if hungUp { finish(.hangUp) }
                return
            case .done(let received) where received.count == 0 && (hungUp || policy.emptyReadIsEndOfStream):
                return finish(.hangUp)
            case .done(let received):
                deliver(.received(Array(buffer.prefix(received.count)), from: received.sender))
            }
        }
    }

    /// Sends queued messages until the kernel's buffer is full again.
    mutating func drainPending() {
        while let head = pending.first {
            switch attempt(head.bytes, to: head.destination) {
            case .sent:
                pending.removeFirst()
                head.continuation.resume(returning: .success(()))
            case .wouldBlock:
                return
            case .failed(.ended):
                return  // `finish` has answered every queued send, this one included.
            case .failed(let failure):
                pending.removeFirst()
                head.continuation.resume(returning: .failure(failure))
            }
        }
    }

    /// Ends the pump once: answers every queued send, delivers the last event, wakes the thread
    /// (which closes the descriptors after it left `poll`). Later calls do nothing.
    mutating func finish(_ end: FDPumpEnd) {
        guard self.end == nil else { return }
        self.end = end
        let waiting = pending
        pending = []
        for send in waiting { send.continuation.resume(returning: .failure(.ended(end))) }
        deliver(.ended(end))
        SocketSyscall.wake(wakeup.signal)
    }

    /// Resumes at once if the descriptors are closed already, else when the thread closes them.
    mutating func waitForClose(_ continuation: CheckedContinuation<Void, Never>) {
        if descriptorsClosed { return continuation.resume() }
        closeWaiters.append(continuation)
    }

    mutating func closeDescriptors() {
        guard !descriptorsClosed else { return }
        descriptorsClosed = true
        SocketSyscall.closeSocket(descriptor)
        SocketSyscall.closeSocket(wakeup.watch)
        SocketSyscall.closeSocket(wakeup.signal)
        let waiters = closeWaiters
        closeWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}
