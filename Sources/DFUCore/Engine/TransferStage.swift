import Transport

/// The transfer stage, for any protocol: the session's transfer turned into progress events with a
/// rate, kept alive across link losses. When the link goes, this stage reconnects (capped backoff,
/// until `deadlines.connect` has passed) and attaches the new link through the connection; the
/// session then resumes from the offset the device reports. A reconnection that cannot succeed (no
/// device before the deadline, or a device without the protocol) abandons the transfer at once
/// instead of when the session's own link-restore deadline passes.
struct TransferStage<Session: UpdateSession, Client: LinkClient>: Sendable {
    let connection: DeviceConnection<Client>
    let session: Session
    let context: SessionContext

    /// Transfers `part` of `update`; progress names the part when there is more than one.
    func run(_ update: Session.Update, part: UpdatePart) async throws(DFUError) -> PartTransfer {
        // The attempt that reattached the link, until the next progress reports where it resumed.
        let pendingResume = Locked<Int?>(nil)
        // Why reconnecting failed, to explain the transfer's end.
        let reconnectFailure = Locked<ReconnectFailure?>(nil)
        let lossesBefore = await connection.losses.count
        let clock = context.clock
        let emit = context.emit
        let start = clock.now
        let meter = Locked(TransferRateMeter())
        // The cores announce 0 before the device has said where it is; the first count shown is the
        // device's first answer (where a resumed transfer continues), so the rate leaves out the wait
        // for it (an SMP device erases its slot then).
        let answered = Locked(false)

        let shownPart = part.count > 1 ? part : nil
        let outcome: Result<PartTransfer, DFUError> = await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await keepConnected(after: lossesBefore, pendingResume: pendingResume, failure: reconnectFailure)
            }
            defer { group.cancelAll() }
            do throws(DFUError) {
                let transferred = try await session.transfer(update, part: part) { count in
                    let beforeTheDevicesAnswer = answered.withLock { answered in
                        if count.acknowledged > 0 { answered = true }
                        return !answered
                    }
                    if beforeTheDevicesAnswer { return }
                    let now = clock.now
                    let acknowledged = Int(clamping: count.acknowledged)
                    if let attempt = pendingResume.take() {
                        emit(.resumed(offset: acknowledged, attempt: attempt))
                    }
                    let rate = meter.withLock { $0.record(acknowledged: acknowledged, at: now) }
                    emit(.progress(TransferProgress(count, elapsed: now - start, rate: rate, part: shownPart)))
                }
                return .success(transferred)
            } catch {
                if let failure = reconnectFailure.withLock({ $0 }) {
                    let why = Self.describe(failure, allowance: context.deadlines.connect)
                    return .failure(.transferInterrupted("transfer interrupted: \(why). \(EngineFailure.rerun)", cause: failure.cause))
                }
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Waits for link losses and reconnects after each, until the transfer ends (this task is
    /// cancelled then, which ends the wait).
    private func keepConnected(after lossesBefore: Int, pendingResume: Locked<Int?>, failure: Locked<ReconnectFailure?>) async {
        var handled = lossesBefore
        let device = context.device
        let emit = context.emit
        while !Task.isCancelled {
            guard let reason = await connection.losses.waitForLoss(beyond: handled) else { return }
            handled = await connection.losses.count
            // The device's own reset at the end of the transfer (its answer may have come first,
            // or not at all): the transfer ends by itself, and the reboot wait reconnects.
            if await session.resetIsDue() { return }
            emit(.warning("the link to \(device) was lost (\(reason)); reconnecting"))
            let allowance = context.deadlines.connect
            let result = await connection.reconnect(until: context.clock.reachableBy(allowance), log: context.log,
                                                    willAttach: { attempt in pendingResume.withLock { $0 = attempt } })
            switch result {
            case .success(let attempt):
                emit(.log("reconnected to \(device) on attempt \(attempt); resuming from the device's offset"))
            case .failure(let reconnect):
                pendingResume.withLock { $0 = nil }
                if case .link(.cancelled) = reconnect { return } // the transfer ended meanwhile
                failure.withLock { $0 = reconnect }
                await session.abandonTransfer()
                return
            }
        }
    }

    private static func describe(_ failure: ReconnectFailure, allowance: Duration) -> String {
        switch failure {
        case .link(.timeout): return "the link was lost and the device did not come back within \(allowance)"
        case .link(let error): return "the link was lost and reconnecting failed: \(error)"
        case .layoutMissing(let problem, _): return "the link was lost and the device came back without the update service: \(problem)"
        }
    }
}
