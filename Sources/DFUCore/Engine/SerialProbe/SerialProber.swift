import Transport

/// Asks one open serial port the probes in turn (the registry's: SMP console, SMP raw, Nordic
/// ping) and reports the first that is answered: each request is written, then the port's bytes go
/// to that probe's listener until it hears the answer or `timeout` passes; then the next probe.
/// Bytes that belong to no probe (a banner, a late answer to an earlier probe) are the listener's
/// to ignore. The port stays open across probes, so nothing it says is lost between them.
///
/// The link is the port's bytes shown as one characteristic (`SerialLink`); the prober never
/// disconnects it, its caller does.
package struct SerialProber: Sendable {
    /// How asking a port ended.
    package enum Outcome: Sendable {
        case answered(SerialProbe)
        /// No probe was answered in time.
        case silent
        /// The port went away or refused a write while being asked; the text says how.
        case lost(String)
    }

    package var probes: [SerialProbe]
    /// How long each probe waits for its answer.
    package var timeout: Duration
    var clock: EngineClock

    package init(probes: [SerialProbe] = ProtocolRegistry.serialProbes, timeout: Duration) {
        self.init(probes: probes, timeout: timeout, clock: .continuous)
    }

    init(probes: [SerialProbe], timeout: Duration, clock: EngineClock) {
        self.probes = probes
        self.timeout = timeout
        self.clock = clock
    }

    /// The probe listening now and whether the port ended, shared with the task reading the port.
    private struct Listening: Sendable {
        var current: (listener: any SerialProbeListener, answer: SerialProbeWait)?
        var ended: String?
    }

    /// Asks the probes on `link`, whose bytes come and go on `characteristic`.
    package func run(on link: any Link, characteristic: CharacteristicID,
                     log: @escaping @Sendable (String) -> Void = { _ in }) async -> Outcome {
        let listening = Locked(Listening())
        let reader = Task {
            for await event in link.events {
                switch event.kind {
                case .notification(let source, let bytes):
                    guard source == characteristic else { continue }
                    let answered = listening.withLock { state -> SerialProbeWait? in
                        guard var current = state.current else { return nil }
                        let heard = current.listener.receive(bytes)
                        state.current = current
                        return heard ? current.answer : nil
                    }
                    answered?.finish(.answered)
                case .disconnected(let reason):
                    let waiting = listening.withLock { state -> SerialProbeWait? in
                        state.ended = reason.description
                        return state.current?.answer
                    }
                    waiting?.finish(.lost(reason.description))
                    return
                }
            }
        }
        defer { reader.cancel() }
        for probe in probes {
            let answer = SerialProbeWait()
            let ended = listening.withLock { state -> String? in
                if let ended = state.ended { return ended }
                state.current = (probe.listener(), answer)
                return nil
            }
            if let ended { return .lost(ended) }
            log("asking \(probe.label)")
            let deadline = clock.reachableBy(timeout)
            let timer = Task { [clock] in
                try? await clock.pause(until: deadline)
                answer.finish(.silent)
            }
            let writer = Task {
                do throws(LinkError) {
                    try await link.writeWithoutResponse(probe.request, to: characteristic)
                } catch {
                    if case .disconnected(let reason) = error {
                        answer.finish(.lost(reason.description))
                    } else {
                        answer.finish(.lost(error.description))
                    }
                }
            }
            let result = await answer.result()
            timer.cancel()
            writer.cancel()
            listening.withLock { $0.current = nil }
            switch result {
            case .answered: return .answered(probe)
            case .silent: continue
            case .lost(let reason): return .lost(reason)
            }
        }
        return .silent
    }
}
