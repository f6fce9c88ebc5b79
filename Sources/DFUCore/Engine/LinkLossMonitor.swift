import Transport

/// Counts the link losses a protocol's `LinkClient` reports, so several stages can ask "has the link
/// dropped since I last looked?" and wait for it. `LinkClient.linkLosses` has one consumer for the
/// client's whole life; this actor is that consumer, and the stages read from it instead.
///
/// The client only reports the loss of the link it currently serves (late events of an earlier
/// generation are dropped before they reach it), so each count is one real loss.
actor LinkLossMonitor {
    private struct Waiter {
        let beyond: Int
        let continuation: CheckedContinuation<DisconnectReason?, Never>
        let timer: Task<Void, Never>?
    }

    /// Losses seen so far.
    private(set) var count = 0
    /// Why the newest loss happened.
    private(set) var lastReason: DisconnectReason?
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiter: UInt64 = 0
    private var forwarding: Task<Void, Never>?
    /// Set by `stop()` or when the client's stream ended: no loss can be counted any more.
    private var ended = false
    private let clock: EngineClock

    private init(clock: EngineClock) { self.clock = clock }

    /// Starts consuming `losses`; deadlines of waits are real time on `clock`.
    static func watching(_ losses: AsyncStream<DisconnectReason>, clock: EngineClock) async -> LinkLossMonitor {
        let monitor = LinkLossMonitor(clock: clock)
        await monitor.start(losses)
        return monitor
    }

    private func start(_ losses: AsyncStream<DisconnectReason>) {
        forwarding = Task { [weak self] in
            for await reason in losses {
                await self?.record(reason)
            }
            await self?.stop()
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
    /// Without a deadline it waits until one of those or `stop()`.
    func waitForLoss(beyond: Int, until deadline: ContinuousClock.Instant? = nil) async -> DisconnectReason? {
        if count > beyond { return lastReason }
        if ended { return nil }
        nextWaiter += 1
        let id = nextWaiter
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { return continuation.resume(returning: nil) }
                let clock = clock
                let timer = deadline.map { deadline in
                    Task { [weak self] in
                        do { try await clock.pause(until: deadline) } catch { return }
                        await self?.finish(id, with: nil)
                    }
                }
                waiters[id] = Waiter(beyond: beyond, continuation: continuation, timer: timer)
            }
        } onCancel: {
            Task { await self.finish(id, with: nil) }
        }
    }

    private func finish(_ id: UInt64, with reason: DisconnectReason?) {
        guard let waiter = waiters.removeValue(forKey: id) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(returning: reason)
    }

    /// Stops consuming; anyone still waiting gets nil.
    func stop() {
        ended = true
        forwarding?.cancel()
        forwarding = nil
        for id in Array(waiters.keys) { finish(id, with: nil) }
    }
}
