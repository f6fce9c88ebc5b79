import Synchronization

/// The one fd pump of Transport: drives one non-blocking file descriptor (a UDP socket, the
/// SOCK_SEQPACKET fd bluetoothd hands out for `AcquireWrite`/`AcquireNotify`, a tty, a pipe) from a
/// thread of its own, so nothing blocks the cooperative pool.
///
///     let pump = try FDPump.start(owning: fd, policy: FDPumpPolicy(receiveBufferSize: 1024)) { event in
///         continuation.yield(event)        // .received(bytes, from:) …, then one .ended(why)
///     }
///     switch await pump.send(bytes) { … }  // suspends while the kernel's buffer is full
///     await pump.closeAndWait()            // or close(): the thread closes the fd and exits
///
/// The thread blocks in `SystemCall.waitForReadiness` on the descriptor and a `WakeChannel`. It
/// reads (`read`; `recvfrom` on a socket that serves many peers) until would-block and hands what
/// each read returned, in arrival order, to `deliver` (which should only yield, e.g. into an
/// `AsyncStream` continuation: no `Task` hop that could reorder): one message on a datagram or
/// seqpacket socket, a chunk of a byte stream on a tty or pipe. It writes with `write` (on a
/// socket `send(MSG_NOSIGNAL)`, which is `write` without SIGPIPE; a pipe whose reader went
/// raises SIGPIPE, which the process must ignore, as dfu does); what a stream did not take waits
/// and goes first. While sends are queued it waits for `POLLOUT` too: a full buffer
/// suspends the sender (back-pressure), never sleeps, never drops. A hang-up (`POLLHUP`, EOF) ends
/// the pump once what the peer sent was read. Not a `DispatchSourceRead`: on Linux libdispatch
/// merges only EPOLLIN/EPOLLOUT into its sources (`_dispatch_event_merge_fd`,
/// swift-corelibs-libdispatch `src/event/event_epoll.c`), so an ICMP port-unreachable, which raises
/// only EPOLLERR on a connected UDP socket, would never be seen.
///
/// Concurrency: every mutable field sits in one `Mutex` (`FDPumpState`), so the class is `Sendable`
/// without `@unchecked`. Syscalls run with the lock held; none blocks. Only `poll` blocks, outside
/// the lock. Answers, events and close wake-ups are handed on after the lock is let go, by one
/// thread at a time in the order they arose (`withState`): a task resumed, or a stream yielded to,
/// under the lock could deadlock with that task's cancellation, whose handler (`send`'s) takes the
/// lock while the runtime holds the task's own. The pump ends under the lock, and only the thread closes the
/// descriptors, under the lock, after it has left `poll`; every other use first checks, under the
/// lock, that the pump has not ended. So no call touches a closed descriptor, or one the process
/// has since reused. The thread holds the pump until it ends: an owner must call `close()`.
package final class FDPump: Sendable {
    private let state: Mutex<FDPumpState>
    private let deliver: @Sendable (FDPumpEvent) -> Void

    private init(state: FDPumpState, deliver: @escaping @Sendable (FDPumpEvent) -> Void) {
        self.state = Mutex(state)
        self.deliver = deliver
    }

    /// Takes ownership of `descriptor` (non-blocking; closed by the pump, also when this throws) and
    /// starts the thread; events start at once.
    package static func start(owning descriptor: Int32, policy: FDPumpPolicy,
                      deliver: @escaping @Sendable (FDPumpEvent) -> Void) throws(SystemCallError) -> FDPump {
        let wakeChannel: WakeChannel
        do throws(SystemCallError) {
            wakeChannel = try WakeChannel.open()
        } catch {
            SystemCall.closeDescriptor(descriptor)
            throw error
        }
        // From here the pump owns the descriptors: its deinit closes them if no thread runs.
        let pump = FDPump(state: FDPumpState(descriptor: descriptor, wakeChannel: wakeChannel, policy: policy),
                          deliver: deliver)
        try SystemCall.startThread { pump.run() }
        return pump
    }

    deinit {
        // Reached only when the thread has let go: descriptors closed already, or never started.
        state.withLock { $0.closeDescriptors() }
    }

    /// Bytes sent that the peer has not read yet (queued here or in the kernel); nil once ended.
    package var unreadByPeer: Int? { state.withLock { $0.unreadByPeer } }

    /// Why the pump ended; nil while it is open.
    package var end: FDPumpEnd? { state.withLock { $0.end } }

    /// Runs `body` under the lock, then hands on what is in the outbox, unless another thread is
    /// handing it on already (it takes this too, in order).
    private func withState<Value>(_ body: (inout FDPumpState) -> Value) -> Value {
        let (value, handOn) = state.withLock { state in
            let value = body(&state)
            guard !state.outbox.isEmpty, !state.handingOn else { return (value, false) }
            state.handingOn = true
            return (value, true)
        }
        if handOn { handOnOutbox() }
        return value
    }

    /// Empties the outbox outside the lock until nothing more has been left in it.
    private func handOnOutbox() {
        while true {
            let batch = state.withLock { state in
                let batch = state.takeOutbox()
                if batch.isEmpty { state.handingOn = false }
                return batch
            }
            if batch.isEmpty { return }
            for item in batch {
                switch item {
                case .answer(let continuation, let result): continuation.resume(returning: result)
                case .event(let event): deliver(event)
                case .closed(let continuation): continuation.resume()
                }
            }
        }
    }

    /// Ends the pump: queued sends fail with `.ended(.closed)`, `deliver` gets `.ended(.closed)`, the
    /// thread wakes, closes the descriptors and exits. Calling it again does nothing.
    package func close() {
        withState { $0.finish(.closed) }
    }

    /// `close()`, then waits until the thread has closed the descriptors (microseconds), so e.g. a
    /// port is free for others when this returns.
    package func closeAndWait() async {
        await withCheckedContinuation { continuation in
            withState { state in
                state.finish(.closed)
                state.waitForClose(continuation)
            }
        }
    }

    /// Sends one message (to the connected peer when `destination` is nil; on a stream or tty, the
    /// bytes go whole and unmixed with others). Returns once the kernel took it; suspends while the
    /// send buffer is full; messages leave in call order. A send cancelled before any of it left is
    /// not sent; once a part left, the rest follows.
    package func send(_ bytes: [UInt8], to destination: SocketAddress? = nil) async -> Result<Void, FDPumpSendFailure> {
        if Task.isCancelled { return .failure(.cancelled) }
        // Fast path: nothing queued and the kernel takes it now; no continuation needed.
        let first: FastPath = withState { state in
            if let end = state.end { return .answered(.failure(.ended(end))) }
            guard !state.wantsWritable else { return .queue }
            switch state.attempt(bytes[...], to: destination) {
            case .sent: return .answered(.success(()))
            case .failed(let failure): return .answered(.failure(failure))
            case .wouldBlock: return .queue
            case .sentPart(let rest): return .rest(state.queueRest(rest, to: destination))
            }
        }
        switch first {
        case .answered(let result):
            return result
        case .rest(let id):
            return await withCheckedContinuation { continuation in
                withState { $0.attach(id, continuation) }
            }
        case .queue:
            break
        }
        let id = withState { $0.nextSendID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                withState { $0.enqueue(id: id, bytes, to: destination, continuation: continuation) }
            }
        } onCancel: {
            withState { $0.cancelSend(id) }
        }
    }

    /// What the fast path of `send` did.
    private enum FastPath {
        case answered(Result<Void, FDPumpSendFailure>)
        /// Queue it (others wait, or the kernel's buffer is full).
        case queue
        /// A part left; the rest is queued under this identifier, first.
        case rest(UInt64)
    }

    // MARK: - The pump's thread

    private func run() {
        while true {
            // Read under the lock; a send queued after this wakes the poll below through the channel.
            let watch: (watch: PollWatch, wakeChannel: WakeChannel)? = withState { state in
                if state.end != nil {
                    state.closeDescriptors()
                    return nil
                }
                return (PollWatch(descriptor: state.descriptor, writable: state.wantsWritable), state.wakeChannel)
            }
            guard let watch else { return }
            let readiness: PollReadiness
            do throws(SystemCallError) {
                let seen = try SystemCall.waitForReadiness(of: [watch.watch], wakeChannel: watch.wakeChannel)
                guard let first = seen.first else { continue }
                readiness = first
            } catch {
                withState { $0.finish(.failed(error)) }
                continue
            }
            if readiness.invalid {
                let error = SystemCallError(call: "poll", code: SystemCallError.badDescriptor)
                withState { $0.finish(.failed(error)) }
                continue
            }
            if readiness.readable { withState { $0.receiveAvailable(hungUp: readiness.hungUp) } }
            if readiness.output { withState { $0.drainPending() } }
        }
    }
}
