import DBusBinding
import Transport

/// Pairing inside `connect` (bluez-dbus.md §9). An unpaired device is first used as it is, with
/// notifications through StartNotify (never AcquireNotify, which bluetoothd 5.66 leaves unanswered
/// and then crashes on when the CCC needs security). When subscribing is refused for want of
/// security, or `pairFirst` asks, the device is paired with `Device1.Pair` from our own bus
/// connection, so bluetoothd uses our agent and its IO capability, then the connect goes on (the
/// link often dropped: it is made again). A device already paired is used as it is.
extension BlueZConnector {
    /// What this `connect` call did about security so far.
    struct SecurityProgress: Sendable {
        /// We paired the device in this call.
        var paired = false
        /// Our agent gave a passkey or confirmed a number for that pairing.
        var authenticated = false
        /// Pair calls that asked to be tried again.
        var retries = 0
        /// Connects in a row that looked like a device that lost its bond (`BlueZStaleBondWatch`).
        var staleBondSigns = 0
        /// We removed a stale bond in this call (done at most once).
        var rebonded = false
    }

    /// Pairs `device`. `refusal`: the ATT error that showed the device needs it (nil: `pairFirst`).
    func pair(_ device: BlueZDeviceInfo, because refusal: ATTError?, progress: inout SecurityProgress,
              deadline: ContinuousClock.Instant) async throws(LinkError) {
        let label = PeerIdentity(device.address).redacted
        guard let agent else { throw .security(.pairingRequired(refusal)) }
        if let refusal, progress.paired || device.paired {
            // Paired, by us or before, and still refused: the key is too weak (Just Works).
            throw .security(.stillRefusedAfterPairing(refusal))
        }
        if refusal != nil, agent.wasAsked {
            // The refusal made bluetoothd pair by itself with the default agent, ours, and that
            // failed on our answer: a Pair now would only ask the person the same question again.
            if agent.gaveAuthenticatedAnswer {
                throw .security(.pairingFailed(reason: "the passkey was wrong or the device refused it", detail: nil))
            }
            throw .security(.pairingFailed(reason: agent.lastRefusal ?? "dfu's agent refused it", detail: nil))
        }
        log(refusal.map { "\(label) requires a secure link (\($0)); pairing" } ?? "pairing with \(label) before the update")
        while true {
            agent.resetOutcome()
            let outcome: BlueZPairOutcome
            do throws(DBusError) {
                _ = try await client.call(device.path, BlueZNames.device, "Pair", timeout: pairTimeout(deadline))
                outcome = .alreadyPaired
            } catch {
                if Task.isCancelled {
                    _ = await client.callDetached(device.path, BlueZNames.device, "CancelPairing", timeout: .seconds(5))
                    throw .cancelled
                }
                outcome = BlueZPairOutcome(error)
            }
            switch outcome {
            case .alreadyPaired:
                progress.paired = true
                progress.authenticated = agent.gaveAuthenticatedAnswer
                await waitUntilPaired(device.path, deadline: deadline)
                log("paired with \(label)\(progress.authenticated ? " (passkey)" : "")")
                return
            case .retry(let reason) where progress.retries < 3 && ContinuousClock.now < deadline:
                progress.retries += 1
                log("pairing with \(label) failed (\(reason)); retrying")
                do { try await Task.sleep(for: .milliseconds(500)) } catch { throw .cancelled }
            case .retry(let reason), .failed(let reason):
                throw .security(.pairingFailed(reason: reason, detail: agent.lastRefusal))
            case .unavailable(let error):
                throw .unavailable(error.description)
            }
        }
    }

    /// A person may be typing the passkey: give them time; a passkey given up front needs little.
    private func pairTimeout(_ deadline: ContinuousClock.Instant) -> Duration {
        if case .prompt = pairing.input { return .seconds(120) }
        return min(max(ContinuousClock.now.duration(to: deadline), .seconds(10)), .seconds(60))
    }

    /// Pair's reply can overtake Paired=true (property changes go out from an idle callback, §2).
    private func waitUntilPaired(_ path: String, deadline: ContinuousClock.Instant) async {
        let grace = min(deadline, ContinuousClock.now.advanced(by: .seconds(5)))
        _ = await client.store.wait(until: grace) { $0.device(at: path)?.paired != false }
    }

    /// " (bonded, encrypted)" for the connect log line.
    static func securityNote(_ security: LinkSecurity?) -> String {
        guard let security, security.paired else { return "" }
        return security.pairedNow ? ", paired now" : ", bonded"
    }

    /// Releases the agent (at the end of the run).
    public func releaseAgent() async {
        await agent?.unregister()
    }
}
