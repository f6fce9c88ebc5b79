import Synchronization
import Transport

/// The device an update talks to: the SMP session, the link it currently serves, and how to get a
/// new link after the old one went (a lost connection, a reboot). Sendable, so the transfer stage
/// can reconnect from a child task while another awaits the upload.
///
/// Every link is checked before it is used: the SMP service and characteristic must be there with
/// write without response and notify (smp-mcuboot.md §1).
final class DeviceConnection: Sendable {
    let session: SMPSession
    let losses: LinkLossMonitor
    private let connector: any Connector
    private let peer: PeerIdentity
    private let current: Mutex<any Link>
    /// How many losses the monitor had counted when the current link was attached: more than
    /// that means the current link is gone too.
    private let attachedAfterLosses = Mutex(0)

    private init(session: SMPSession, losses: LinkLossMonitor, connector: any Connector, peer: PeerIdentity,
                 link: any Link) {
        self.session = session
        self.losses = losses
        self.connector = connector
        self.peer = peer
        current = Mutex(link)
    }

    /// The link the session serves now.
    var link: any Link { current.withLock { $0 } }

    /// Connects (retrying with capped backoff until `deadline`, real time), checks the GATT layout
    /// and starts an SMP session on the link. Failures are `deviceUnreachable`.
    static func open(_ connector: any Connector, peer: PeerIdentity, label: String, until deadline: ContinuousClock.Instant,
                     clock: EngineClock, session configuration: SMPSession.Configuration,
                     log: @Sendable (String) -> Void) async throws(DFUError) -> DeviceConnection {
        var backoff = ConnectBackoff()
        var attempt = 0
        while true {
            attempt += 1
            let link: any Link
            switch await connectOnce(connector, peer: peer, until: deadline) {
            case .success(let connected):
                link = connected
            case .failure(let error):
                guard let delay = retryDelay(after: error, backoff: &backoff, deadline: deadline) else {
                    throw unreachable(label, error, deadline: deadline)
                }
                log("connect attempt \(attempt) failed (\(error)); trying again in \(delay)")
                try? await Task.sleep(for: delay)
                continue
            }
            if let problem = UpdateGATT.smpProblem(in: link.services) {
                await link.disconnect()
                throw .deviceUnreachable("\(label) cannot be updated: \(problem). Check that the device runs firmware with MCUmgr (SMP) enabled.")
            }
            do throws(LinkError) {
                let session = try await clock.session(on: link, configuration: configuration)
                let losses = await LinkLossMonitor.watching(session)
                return DeviceConnection(session: session, losses: losses, connector: connector, peer: peer, link: link)
            } catch {
                await link.disconnect()
                guard let delay = retryDelay(after: error, backoff: &backoff, deadline: deadline) else {
                    throw unreachable(label, error, deadline: deadline)
                }
                log("subscribing to SMP notifications failed (\(error)); trying again in \(delay)")
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// Whether the current link was lost (and no new one attached since).
    var isLinkLost: Bool {
        get async { await losses.count > attachedAfterLosses.withLock { $0 } }
    }

    /// Why the current link went down. A request fails with `linkLost` as soon as the session sees
    /// the drop, which may be a moment before the loss monitor records it: wait briefly for that.
    func lossReason() async -> DisconnectReason? {
        await losses.waitForLoss(beyond: attachedAfterLosses.withLock { $0 },
                                 until: ContinuousClock.now.advanced(by: .milliseconds(500)))
    }

    /// Connects again after the link was lost and hands the new link to the session (which
    /// subscribes again; an upload in progress resumes from the device's offset). Returns the
    /// attempt that succeeded (1 = first), or why no link came before `deadline`. `willAttach`
    /// runs just before the session gets the link, with the attempt number, so a caller can
    /// expect the replies that follow.
    func reconnect(until deadline: ContinuousClock.Instant, log: @Sendable (String) -> Void,
                   willAttach: @Sendable (Int) -> Void = { _ in }) async -> Result<Int, ReconnectFailure> {
        var backoff = ConnectBackoff()
        var attempt = 0
        // Every loss counted so far belongs to links before the one about to be made.
        let lossesSoFar = await losses.count
        while true {
            attempt += 1
            if Task.isCancelled { return .failure(.link(.cancelled)) }
            var failure: LinkError
            switch await Self.connectOnce(connector, peer: peer, until: deadline) {
            case .success(let link):
                if let problem = UpdateGATT.smpProblem(in: link.services) {
                    await link.disconnect()
                    return .failure(.noSMP(problem))
                }
                do throws(LinkError) {
                    willAttach(attempt)
                    try await session.attach(link)
                    current.withLock { $0 = link }
                    attachedAfterLosses.withLock { $0 = lossesSoFar }
                    return .success(attempt)
                } catch {
                    await link.disconnect()
                    failure = error
                }
            case .failure(let error):
                failure = error
            }
            guard let delay = Self.retryDelay(after: failure, backoff: &backoff, deadline: deadline) else {
                return .failure(.link(failure))
            }
            log("reconnect attempt \(attempt) failed (\(failure)); trying again in \(delay)")
            try? await Task.sleep(for: delay)
        }
    }

    /// Ends the session and the link. Safe to call more than once.
    func close() async {
        await session.close()
        await losses.stop()
        await link.disconnect()
    }

    enum ReconnectFailure: Error, Sendable, Equatable {
        /// No usable link before the deadline (the last error).
        case link(LinkError)
        /// A link came up but the device no longer offers SMP (a new image without MCUmgr).
        case noSMP(String)
    }

    // MARK: - Attempts

    private static func connectOnce(_ connector: any Connector, peer: PeerIdentity,
                                    until deadline: ContinuousClock.Instant) async -> Result<any Link, LinkError> {
        do throws(LinkError) {
            return .success(try await connector.connect(to: peer, deadline: deadline))
        } catch {
            return .failure(error)
        }
    }

    /// The pause before the next attempt, or nil when trying again cannot help: the deadline
    /// passed (a connector waits for the device itself until then), the device is unknown, the
    /// Bluetooth stack is unusable (adapter off, no bluetoothd), or the task was cancelled.
    private static func retryDelay(after error: LinkError, backoff: inout ConnectBackoff,
                                   deadline: ContinuousClock.Instant) -> Duration? {
        switch error {
        case .timeout, .cancelled, .peerNotFound, .unavailable, .security:
            return nil
        default:
            let delay = backoff.nextDelay()
            return ContinuousClock.now.advanced(by: delay) < deadline && !Task.isCancelled ? delay : nil
        }
    }

    private static func unreachable(_ label: String, _ error: LinkError, deadline: ContinuousClock.Instant) -> DFUError {
        DFUError.connectFailed(label, error)
    }
}

extension DFUError {
    /// What a failed connect to `label` means for the user: exit 5 (cannot reach it, or the stack
    /// is unusable), or 9 when the device demands a secure link that could not be set up.
    public static func connectFailed(_ label: String, _ error: LinkError) -> DFUError {
        switch error {
        case .timeout:
            return .deviceUnreachable("could not connect to \(label) in time. Check that it is powered, advertising and in "
                                      + "range, then retry (or allow more time with --connect-timeout).")
        case .unavailable(let message):
            return .deviceUnreachable(message)
        case .security(let failure):
            return EngineFailure.security(failure, device: label)
        default:
            return .deviceUnreachable("could not connect to \(label): \(error)")
        }
    }
}
