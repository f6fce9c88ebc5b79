import Transport

/// Counts the link losses an `SMPSession` reports, so several stages can ask "has the link dropped
/// since I last looked?" and wait for it. `SMPSession.linkLosses` has one consumer for the session's
/// whole life; this actor is that consumer, and the stages read from it instead.
///
/// The session only reports the loss of the link it currently serves (late events of an earlier
/// generation are dropped before they reach it), so each count is one real loss.
actor LinkLossMonitor {
    private struct Waiter {
        let beyond: Int
        let continuation: CheckedContinuation<DisconnectReason?, Never>
        let timer: Task<Void, Never>
    }

    /// Losses seen so far.
    private(set) var count = 0
    /// Why the newest loss happened.
    private(set) var lastReason: DisconnectReason?
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiter: UInt64 = 0
    private var forwarding: Task<Void, Never>?

    /// Starts consuming `session.linkLosses`.
    static func watching(_ session: SMPSession) async -> LinkLossMonitor {
        let monitor = LinkLossMonitor()
        await monitor.start(session.linkLosses)
        return monitor
    }

    private func start(_ losses: AsyncStream<DisconnectReason>) {
        forwarding = Task { [weak self] in
            for await reason in losses {
                await self?.record(reason)
            }
        }
    }

    private func record(_ reason: DisconnectReason) {
        count += 1
        lastReason = reason
        for (id, waiter) in waiters where count > waiter.beyond {
            finish(id, with: reason)
        }
    }

    /// Returns as soon as more than `beyond` losses were seen (at once if that is already so), with
    /// the newest reason; nil when `deadline` (real time) passes first or the task is cancelled.
    func waitForLoss(beyond: Int, until deadline: ContinuousClock.Instant) async -> DisconnectReason? {
        if count > beyond { return lastReason }
        nextWaiter += 1
        let id = nextWaiter
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { return continuation.resume(returning: nil) }
                let timer = Task { [weak self] in
                    do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
                    await self?.finish(id, with: nil)
                }
                waiters[id] = Waiter(beyond: beyond, continuation: continuation, timer: timer)
            }
        } onCancel: {
            Task { await self.finish(id, with: nil) }
        }
    }

    private func finish(_ id: UInt64, with reason: DisconnectReason?) {
        guard let waiter = waiters.removeValue(forKey: id) else { return }
        waiter.timer.cancel()
        waiter.continuation.resume(returning: reason)
    }

    /// Stops consuming; anyone still waiting gets nil.
    func stop() {
        forwarding?.cancel()
        forwarding = nil
        for id in Array(waiters.keys) { finish(id, with: nil) }
    }
}
