import Synchronization

/// The one fd pump of Transport: drives one non-blocking, message-oriented socket (a UDP socket,
/// or the SOCK_SEQPACKET fd bluetoothd hands out for `AcquireWrite`/`AcquireNotify`) from a thread
/// of its own, so nothing blocks the cooperative pool.
///
///     let pump = try FDPump.start(owning: fd, policy: FDPumpPolicy(receiveBufferSize: 1024)) { event in
///         continuation.yield(event)        // .received(bytes, from:) …, then one .ended(why)
///     }
///     switch await pump.send(bytes) { … }  // suspends while the kernel's buffer is full
///     await pump.closeAndWait()            // or close(): the thread closes the fd and exits
///
/// The thread blocks in `poll` on the socket and a wake-up channel. It reads messages until
/// would-block and hands each, in arrival order, to `deliver` (which should only yield, e.g. into an
/// `AsyncStream` continuation: no `Task` hop that could reorder). While sends are queued it waits for
/// `POLLOUT` too: a full buffer suspends the sender (back-pressure), never sleeps, never drops. A
/// hang-up (`POLLHUP`, EOF) ends the pump once what the peer sent was read. Not a
/// `DispatchSourceRead`: on Linux libdispatch merges only EPOLLIN/EPOLLOUT into its sources
/// (`_dispatch_event_merge_fd`, swift-corelibs-libdispatch `src/event/event_epoll.c`), so an ICMP
/// port-unreachable, which raises only EPOLLERR on a connected UDP socket, would never be seen.
///
/// Concurrency: every mutable field sits in one `Mutex` (`FDPumpState`), so the class is `Sendable`
/// without `@unchecked`. Syscalls and `deliver` run with the lock held; none blocks. Only `poll`
/// blocks, outside the lock. The pump ends under the lock, and only the thread closes the
/// descriptors, under the lock, after it has left `poll`; every other use first checks, under the
/// lock, that the pump has not ended. So no call touches a closed descriptor, or one the process
/// has since reused. The thread holds the pump until it ends: an owner must call `close()`.
final class FDPump: Sendable {
    private let state: Mutex<FDPumpState>

    private init(state: FDPumpState) {
        self.state = Mutex(state)
    }

    /// Takes ownership of `descriptor` (non-blocking; closed by the pump, also when this throws) and
    /// starts the thread; events start at once.
    static func start(owning descriptor: Int32, policy: FDPumpPolicy,
                      deliver: @escaping @Sendable (FDPumpEvent) -> Void) throws(SystemCallError) -> FDPump {
        let wakeup: (watch: Int32, signal: Int32)
        do throws(SystemCallError) {
            wakeup = try SocketSyscall.openWakeupChannel()
        } catch {
            SocketSyscall.closeSocket(descriptor)
            throw error
        }
        // From here the pump owns the descriptors: its deinit closes them if no thread runs.
        let pump = FDPump(state: FDPumpState(descriptor: descriptor, wakeup: wakeup, policy: policy, deliver: deliver))
        try SocketSyscall.startThread { pump.run() }
        return pump
    }

    deinit {
        // Reached only when the thread has let go: descriptors closed already, or never started.
        state.withLock { $0.closeDescriptors() }
    }

    /// Bytes sent that the peer has not read yet (queued here or in the kernel); nil once ended.
    var unreadByPeer: Int? { state.withLock { $0.unreadByPeer } }

    /// Why the pump ended; nil while it is open.
    var end: FDPumpEnd? { state.withLock { $0.end } }

    /// Ends the pump: queued sends fail with `.ended(.closed)`, `deliver` gets `.ended(.closed)`, the
    /// thread wakes, closes the descriptors and exits. Calling it again does nothing.
    func close() {
        state.withLock { $0.finish(.closed) }
    }

    /// `close()`, then waits until the thread has closed the descriptors (microseconds), so e.g. a
    /// port is free for others when this returns.
    func closeAndWait() async {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                state.finish(.closed)
                state.waitForClose(continuation)
            }
        }
    }

    /// Sends one message (to the connected peer when `destination` is nil). Returns once the kernel
    /// took it; suspends while the send buffer is full; messages leave in call order.
    func send(_ bytes: [UInt8], to destination: SocketAddress? = nil) async -> Result<Void, FDPumpSendFailure> {
        if Task.isCancelled { return .failure(.cancelled) }
        // Fast path: nothing queued and the kernel takes it now; no continuation needed.
        let first: FDPumpState.Attempt? = state.withLock { state in
            if let end = state.end { return .failed(.ended(end)) }
            guard !state.wantsWritable else { return nil }
            return state.attempt(bytes, to: destination)
        }
        switch first {
        case .sent: return .success(())
        case .failed(let failure): return .failure(failure)
        case .wouldBlock, nil: break
        }
        let id = state.withLock { $0.nextSendID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    state.enqueue(.init(id: id, bytes: bytes, destination: destination, continuation: continuation))
                }
            }
        } onCancel: {
            state.withLock { $0.cancelSend(id) }
        }
    }

    // MARK: - The pump's thread

    private func run() {
        while true {
            // Read under the lock; a send queued after this wakes the poll below through the channel.
            let watch: (descriptor: Int32, wakeup: Int32, writable: Bool)? = state.withLock { state in
                if state.end != nil {
                    state.closeDescriptors()
                    return nil
                }
                return (state.descriptor, state.wakeup.watch, state.wantsWritable)
            }
            guard let watch else { return }
            let readiness: SocketSyscall.Readiness
            do throws(SystemCallError) {
                readiness = try SocketSyscall.waitForReadiness(watch.descriptor, writable: watch.writable,
                                                               wakeup: watch.wakeup)
            } catch {
                state.withLock { $0.finish(.failed(error)) }
                continue
            }
            if readiness.woken { SocketSyscall.clearWakeups(watch.wakeup) }
            if readiness.invalid {
                let error = SystemCallError(call: "poll", code: SystemCallError.badDescriptor)
                state.withLock { $0.finish(.failed(error)) }
                continue
            }
            if readiness.readable { state.withLock { $0.receiveAvailable(hungUp: readiness.hungUp) } }
            if readiness.writable { state.withLock { $0.drainPending() } }
        }
    }
}
