import Transport

/// The one retry loop that makes a link, for connecting, reconnecting and finding out what a device
/// is (`DeviceConnection`, `dfu info`).
enum LinkAttempts {
    /// Connects until `deadline` (real time) with capped backoff, checks the layout (a device without it fails at once: retrying cannot add a
    /// service), then `use` the link; a link `use` fails on is disconnected and retried like a
    /// failed connect.
    static func run<T>(_ connector: any Connector, peer: PeerIdentity, until deadline: ContinuousClock.Instant,
                       clock: EngineClock, layout: any GATTLayout, verb: String, adopting adopted: (any Link)? = nil,
                       log: @Sendable (String) -> Void,
                       use: (Int, any Link) async throws(LinkError) -> T) async -> Result<T, ReconnectFailure> {
        await run(connector, peers: [peer], until: deadline, clock: clock, layout: layout, verb: verb,
                  adopting: adopted.map { (peer, $0) }, log: log) { attempt, _, link async throws(LinkError) in
            try await use(attempt, link)
        }
    }

    /// The same for a device that may answer under any of `peers` (`Connector.connect(toAnyOf:)`);
    /// `use` learns which one answered.
    static func run<T>(_ connector: any Connector, peers: [PeerIdentity], until deadline: ContinuousClock.Instant,
                       clock: EngineClock, layout: any GATTLayout, verb: String,
                       adopting adopted: (PeerIdentity, any Link)? = nil, log: @Sendable (String) -> Void,
                       use: (Int, PeerIdentity, any Link) async throws(LinkError) -> T) async -> Result<T, ReconnectFailure> {
        var backoff = ConnectBackoff()
        var attempt = 0
        while true {
            attempt += 1
            if Task.isCancelled { return .failure(.link(.cancelled)) }
            let failure: LinkError
            let made: Result<(PeerIdentity, any Link), LinkError>
            if attempt == 1, let adopted {
                made = .success(adopted)
            } else {
                made = await connectOnce(connector, peers: peers, until: deadline)
            }
            switch made {
            case .success(let (peer, link)):
                if let problem = layout.problem(in: link.services) {
                    await link.disconnect()
                    let speaks = ProtocolRegistry.all.first { $0.layout.problem(in: link.services) == nil }?.name
                    return .failure(.layoutMissing(problem, speaks: speaks))
                }
                do throws(LinkError) {
                    return .success(try await use(attempt, peer, link))
                } catch {
                    await link.disconnect()
                    failure = error
                }
            case .failure(let error):
                failure = error
            }
            guard let delay = retryDelay(after: failure, backoff: &backoff, deadline: deadline, clock: clock) else {
                return .failure(.link(failure))
            }
            log("\(verb) attempt \(attempt) failed (\(failure)); trying again in \(delay)")
            await clock.pause(for: delay)
        }
    }

    private static func connectOnce(_ connector: any Connector, peers: [PeerIdentity],
                                    until deadline: ContinuousClock.Instant) async -> Result<(PeerIdentity, any Link), LinkError> {
        do throws(LinkError) {
            return .success(try await connector.connect(toAnyOf: peers, deadline: deadline))
        } catch {
            return .failure(error)
        }
    }

    /// The pause before the next attempt, or nil when trying again cannot help: the deadline
    /// passed (a connector waits for the device itself until then), the device is unknown or cannot
    /// be told from others, the Bluetooth stack is unusable (adapter off, no bluetoothd), or the
    /// task was cancelled.
    private static func retryDelay(after error: LinkError, backoff: inout ConnectBackoff,
                                   deadline: ContinuousClock.Instant, clock: EngineClock) -> Duration? {
        switch error {
        case .timeout, .cancelled, .peerNotFound, .unavailable, .security, .ambiguous:
            return nil
        default:
            let delay = backoff.nextDelay()
            return clock.reachableBy(delay) < deadline && !Task.isCancelled ? delay : nil
        }
    }
}
