import Transport

/// The reconnect stage, for any protocol: wait until the device has dropped the link for its
/// reboot, then reconnect until it is back (before `deadline`, real time).
///
/// Over a link that cannot report the drop (UDP has no connection) the device is down once it
/// stops answering the session's probe; the old socket is then let go, and the device is back when
/// it answers again. No fixed pause proves a reset: Zephyr resets CONFIG_MCUMGR_GRP_OS_RESET_MS
/// after its reply (250 ms by default, but any value).
struct RebootWait<Session: UpdateSession, Client: LinkClient>: Sendable {
    let connection: DeviceConnection<Client>
    let session: Session
    let context: SessionContext

    /// Over a connectionless link, how long to wait between probes while the device still
    /// answers; a loss reported meanwhile ends the wait at once. Short against any real reboot
    /// (MCUboot alone takes longer), so a device cannot go down and come back unseen between two.
    static var probeSpacing: Duration { .milliseconds(100) }
    /// How long one probe waits while the device may still be swapping: short, so the first
    /// answer after the swap is seen soon; the reboot deadline bounds the whole wait.
    static var probeTimeout: Duration { .seconds(1) }

    private var device: String { context.device }

    /// Returns the reconnect attempt that succeeded.
    func run(lossesBefore: Int, deadline: ContinuousClock.Instant) async throws(DFUError) -> Int {
        let link = connection.link
        if link.parameters.isConnectionless {
            try await waitUntilSilent(lossesBefore: lossesBefore, until: deadline)
            await link.disconnect()
        }
        guard let reason = await connection.losses.waitForLoss(beyond: lossesBefore, until: deadline) else {
            throw .postRebootCheckFailed("\(device) accepted the reset but did not restart within the reboot timeout. "
                                         + "Check the device; allow more time with --reboot-timeout.")
        }
        context.log("link dropped for the reboot (\(reason))")
        switch await connection.reconnect(until: deadline, log: context.log) {
        case .success(let attempt):
            if link.parameters.isConnectionless { try await pollUntilAnswering(until: deadline) }
            return attempt
        case .failure(.layoutMissing(let problem, _)):
            throw .postRebootCheckFailed("\(device) \(connection.layout.missingAfterReboot(problem))", cause: .layoutMissing(problem))
        case .failure(.link(.timeout)):
            throw notBack.caused(by: .link(.timeout))
        case .failure(.link(.security(let failure))):
            // It came back without our bond (a new address, or a factory image that lost its keys).
            throw EngineFailure.security(failure, device: device)
        case .failure(.link(let error)):
            throw .postRebootCheckFailed("could not reconnect to \(device) after the reset: \(error)", cause: .link(error))
        }
    }

    private var notBack: DFUError {
        .postRebootCheckFailed("\(device) did not come back after the reset within the reboot timeout. It may still be "
                               + "swapping images (allow more time with --reboot-timeout), or the new image does not start.")
    }

    /// Probes until one goes unanswered (or the link reports the peer gone), which shows the reset
    /// has happened. A device that answers past the deadline never reset.
    private func waitUntilSilent(lossesBefore: Int, until deadline: ContinuousClock.Instant) async throws(DFUError) {
        let clock = context.clock
        while !clock.hasPassed(deadline) {
            try stopIfCancelled()
            switch await session.probe(timeout: Self.probeTimeout) {
            case .silent, .gone: return
            case .answered, .failed: break // it answered, if only wrongly: still up
            }
            let next = min(clock.reachableBy(Self.probeSpacing), deadline)
            if await connection.losses.waitForLoss(beyond: lossesBefore, until: next) != nil { return }
        }
        throw .postRebootCheckFailed("\(device) accepted the reset but kept answering until the reboot timeout: it did not "
                                     + "restart. Check the device; allow more time with --reboot-timeout.")
    }

    /// A cancelled run (Ctrl-C) ends at once: a probe then fails without waiting, so the loops
    /// above would spin until the reboot deadline.
    private func stopIfCancelled() throws(DFUError) {
        guard Task.isCancelled else { return }
        throw .transferInterrupted("the update was cancelled while \(device) restarted. \(EngineFailure.rerunWithImageOnDevice)")
    }

    /// Over a connectionless link the new "link" is up at once; the device is back when it answers.
    private func pollUntilAnswering(until deadline: ContinuousClock.Instant) async throws(DFUError) {
        while true {
            try stopIfCancelled()
            switch await session.probe(timeout: Self.probeTimeout) {
            case .answered:
                return
            case .silent:
                if context.clock.hasPassed(deadline) { throw notBack }
            case .gone:
                throw .postRebootCheckFailed("\(device) came back but the link closed before it answered after the reset.")
            case .failed(let error):
                throw error
            }
        }
    }
}
