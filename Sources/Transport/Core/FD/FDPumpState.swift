/// Everything an `FDPump` changes, and the non-blocking syscalls that change it. Used only inside
/// the pump's `Mutex`, so the descriptor ends, sends are answered and events are delivered in one
/// order that every thread agrees on. What it hands on (a send's answer, an event, a close waiter's
/// wake-up) goes into `outbox`, which the pump empties after it let go of the lock: resuming a
/// task or yielding to a stream under the lock can deadlock against that task's cancellation,
/// which holds the task's own lock while its handler asks for this one (`FDPump.send`'s).
struct FDPumpState {
    typealias SendResult = Result<Void, FDPumpSendFailure>

    /// One thing to hand on outside the lock, in the order it was left.
    enum Outgoing {
        case answer(CheckedContinuation<SendResult, Never>, SendResult)
        case event(FDPumpEvent)
        case closed(CheckedContinuation<Void, Never>)
    }

    /// A send waiting for writability; they leave oldest first, in call order.
    struct PendingSend {
        let id: UInt64
        /// What has not left yet: all of it, or the rest after a stream or tty took a part.
        var bytes: ArraySlice<UInt8>
        let destination: SocketAddress?
        /// Nil only for a send whose first part left on `FDPump.send`'s fast path, until its caller
        /// attaches (`attach`); its answer waits in `earlyResults` if it comes before.
        var continuation: CheckedContinuation<SendResult, Never>?
        /// A part left: the rest must follow before anything else, so it can no longer be cancelled.
        var started = false
    }

    enum Attempt {
        case sent
        /// The kernel took only a part (a stream or tty whose buffer filled); `rest` is still to go.
        case sentPart(rest: ArraySlice<UInt8>)
        case wouldBlock
        case failed(FDPumpSendFailure)
    }

    /// The most reads one wake-up makes before the thread looks at writability again, so a flood
    /// of incoming messages cannot starve queued sends.
    static let messagesPerWakeup = 64

    let descriptor: Int32
    let wakeChannel: WakeChannel
    let policy: FDPumpPolicy
    /// What is to be handed on, oldest first; and whether a thread is handing it on now (one at a
    /// time, so events keep their order).
    private(set) var outbox: [Outgoing] = []
    var handingOn = false
    /// Sockets are written with `send(MSG_NOSIGNAL)`, anything else (a tty, a pipe) with `write`.
    private let isSocket: Bool
    /// Nil while the pump is open.
    private(set) var end: FDPumpEnd?
    private(set) var descriptorsClosed = false
    /// `closeAndWait` callers, resumed once the descriptors are closed.
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    private var pending: [PendingSend] = []
    /// Answers to sends whose caller has not attached yet (see `PendingSend.continuation`).
    private var earlyResults: [UInt64: SendResult] = [:]
    private var lastSendID: UInt64 = 0
    private var buffer: [UInt8]

    init(descriptor: Int32, wakeChannel: WakeChannel, policy: FDPumpPolicy) {
        self.descriptor = descriptor
        self.wakeChannel = wakeChannel
        self.policy = policy
        isSocket = SystemCall.isSocket(descriptor)
        buffer = [UInt8](repeating: 0, count: max(policy.receiveBufferSize, 1))
    }

    /// Sends are queued, so the thread must wait for `POLLOUT` too.
    var wantsWritable: Bool { !pending.isEmpty }

    /// Bytes sent that the peer has not read: still queued here, or unread in the kernel. nil once
    /// ended (the descriptor may be gone), or when the kernel cannot say.
    var unreadByPeer: Int? {
        guard end == nil, let kernel = SystemCall.unreadOutput(descriptor) else { return nil }
        return pending.reduce(kernel) { $0 + $1.bytes.count }
    }

    /// What is to be handed on now; the outbox is empty after.
    mutating func takeOutbox() -> [Outgoing] {
        defer { outbox = [] }
        return outbox
    }

    mutating func nextSendID() -> UInt64 {
        lastSendID += 1
        return lastSendID
    }

    /// Answers `continuation` now if it can (ended, cancelled, or sent at once with nothing ahead
    /// of it); otherwise queues the send and, if it is the first, wakes the thread to watch `POLLOUT`.
    mutating func enqueue(id: UInt64, _ bytes: [UInt8], to destination: SocketAddress?,
                          continuation: CheckedContinuation<SendResult, Never>) {
        if let end { return outbox.append(.answer(continuation, .failure(.ended(end)))) }
        // Checked under the lock: a cancellation handler that ran before found nothing to cancel.
        if Task.isCancelled { return outbox.append(.answer(continuation, .failure(.cancelled))) }
        var send = PendingSend(id: id, bytes: bytes[...], destination: destination, continuation: continuation)
        if pending.isEmpty {
            switch attempt(send.bytes, to: send.destination) {
            case .sent: return outbox.append(.answer(continuation, .success(())))
            case .failed(let failure): return outbox.append(.answer(continuation, .failure(failure)))
            case .sentPart(let rest):
                send.bytes = rest
                send.started = true
            case .wouldBlock: break
            }
        }
        pending.append(send)
        if pending.count == 1 { wakeChannel.wake() }
    }

    /// Queues what is left of a send whose first part left on the fast path (nothing was queued
    /// then, so it goes first); its caller attaches next. Returns the send's identifier.
    mutating func queueRest(_ rest: ArraySlice<UInt8>, to destination: SocketAddress?) -> UInt64 {
        let id = nextSendID()
        pending.append(PendingSend(id: id, bytes: rest, destination: destination, continuation: nil, started: true))
        if pending.count == 1 { wakeChannel.wake() }
        return id
    }

    /// Gives a send queued by `queueRest` its caller's continuation, or answers it if done already.
    mutating func attach(_ id: UInt64, _ continuation: CheckedContinuation<SendResult, Never>) {
        if let result = earlyResults.removeValue(forKey: id) { return outbox.append(.answer(continuation, result)) }
        guard let index = pending.firstIndex(where: { $0.id == id }) else {
            // Every queued send is answered into `earlyResults` when it leaves `pending`.
            return outbox.append(.answer(continuation, .failure(.ended(end ?? .closed))))
        }
        pending[index].continuation = continuation
    }

    /// Withdraws a send that has not started to leave.
    mutating func cancelSend(_ id: UInt64) {
        guard let index = pending.firstIndex(where: { $0.id == id && !$0.started }) else { return }
        answer(pending.remove(at: index), .failure(.cancelled))
    }

    mutating func attempt(_ bytes: ArraySlice<UInt8>, to destination: SocketAddress?) -> Attempt {
        do throws(SystemCallError) {
            let outcome = if let destination {
                try SystemCall.sendDatagram(descriptor, bytes, to: destination)
            } else {
                try SystemCall.writeBytes(descriptor, bytes, isSocket: isSocket)
            }
            switch outcome {
            case .done(let count) where count < bytes.count: return .sentPart(rest: bytes.dropFirst(count))
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

    /// Reads what is queued, up to `messagesPerWakeup` reads. After a hang-up the pump ends once
    /// the queue is empty (would-block) or EOF (0 bytes) is read; a 0-byte read before one is an
    /// empty datagram, unless the policy says such a read is the end of the stream. A socket that
    /// serves many peers is read with `recvfrom`, so each message names its sender.
    mutating func receiveAvailable(hungUp: Bool) {
        for _ in 0..<Self.messagesPerWakeup {
            guard end == nil else { return }
            let outcome: SyscallOutcome<SystemCall.Received>
            do throws(SystemCallError) {
                if policy.servesManyPeers {
                    outcome = try SystemCall.receiveDatagram(descriptor, into: &buffer)
                } else {
                    switch try SystemCall.readBytes(descriptor, into: &buffer) {
                    case .done(let count): outcome = .done((count, nil))
                    case .wouldBlock: outcome = .wouldBlock
                    }
                }
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
                outbox.append(.event(.received(Array(buffer.prefix(received.count)), from: received.sender)))
            }
        }
    }

    /// Sends queued messages until the kernel's buffer is full again.
    mutating func drainPending() {
        while let head = pending.first {
            switch attempt(head.bytes, to: head.destination) {
            case .sent:
                answer(pending.removeFirst(), .success(()))
            case .sentPart(let rest):
                pending[0].bytes = rest
                pending[0].started = true
                return
            case .wouldBlock:
                return
            case .failed(.ended):
                return  // `finish` has answered every queued send, this one included.
            case .failed(let failure):
                answer(pending.removeFirst(), .failure(failure))
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
        for send in waiting { answer(send, .failure(.ended(end))) }
        outbox.append(.event(.ended(end)))
        wakeChannel.wake()
    }

    /// Resumes at once if the descriptors are closed already, else when the thread closes them.
    mutating func waitForClose(_ continuation: CheckedContinuation<Void, Never>) {
        if descriptorsClosed { return outbox.append(.closed(continuation)) }
        closeWaiters.append(continuation)
    }

    mutating func closeDescriptors() {
        guard !descriptorsClosed else { return }
        descriptorsClosed = true
        SystemCall.closeDescriptor(descriptor)
        wakeChannel.close()
        outbox += closeWaiters.map(Outgoing.closed)
        closeWaiters = []
    }

    private mutating func answer(_ send: PendingSend, _ result: SendResult) {
        if let continuation = send.continuation {
            outbox.append(.answer(continuation, result))
        } else {
            earlyResults[send.id] = result
        }
    }
}
