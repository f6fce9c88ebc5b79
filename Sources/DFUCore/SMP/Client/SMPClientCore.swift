import Transport

/// The SMP client as a value-type state machine (sans-I/O): sequence numbers, the SMP version,
/// packets cut into writes, replies reassembled from notifications and matched to their requests,
/// and one deadline per request. No clock, no link, no tasks: a driver feeds `handle(_:now:)` and
/// carries out the returned actions in order.
///
/// Transitions (any pair not listed is a local protocol violation: `.failed(.localProtocolViolation)`):
///
///     state         event                 next          actions
///     connected     send                  connected     write…  (or finished(failure) if it cannot go)
///     connected     notification          connected     finished(id, response) when a frame completes;
///                                                       a late/duplicate reply is dropped;
///                                         failed        failed(remoteProtocolViolation) on a bad frame,
///                                                       unknown sequence, wrong group/command, bad CBOR
///     connected     timerFired            connected     finished(id, .timeout) for each expired request
///     connected     linkLost              disconnected  finished(id, .linkLost) for each waiting request
///     disconnected  send                  disconnected  finished(id, .linkLost)
///     disconnected  linkLost, timerFired  disconnected  —
///     disconnected  linkRestored          connected     — (new write size; a partial reply is gone)
///     connected,    deviceLimits          same          — (new packet budget)
///      disconnected                       failed        failed(invalidBudget) if it cannot carry SMP
///     failed        send                  failed        finished(id, the failure)
///     failed        anything else         failed        —
///
/// After any event, `.timer(at:)` is returned when the earliest deadline changed (nil: none left).
/// An early `timerFired` does nothing, so a driver may wake up as often as it likes.
public struct SMPClientCore: Sendable {
    public enum Event: Sendable, Hashable {
        /// Send a request; it must be answered within `timeout` of `now`.
        case send(SMPRequestID, SMPRequestMessage, timeout: Duration)
        /// One notification value from the SMP characteristic.
        case notification([UInt8])
        /// The driver's timer went off (early is fine).
        case timerFired
        /// The link is down: no answer to what was sent will come.
        case linkLost
        /// A new link is up, whose writes may carry `maxWriteSize` bytes.
        case linkRestored(maxWriteSize: Int)
        /// What the device said about itself: its SMP buffer (`buf_size`) and whether it
        /// reassembles packets from several writes. Applies to requests sent from now on.
        case deviceLimits(bufferSize: Int?, reassembles: Bool)
    }

    public enum Action: Sendable, Hashable {
        /// Send these bytes as one write without response. Writes go out in the order given.
        case write([UInt8])
        /// Wake the core (`timerFired`) at this instant; nil cancels the wake-up.
        case timer(at: MonotonicInstant?)
        /// The request ended: the device's response (a success body) or why not.
        case finished(SMPRequestID, Result<SMPPacket, SMPClientError>)
        /// The client cannot go on; every waiting request has been finished with the same error.
        case failed(SMPClientError)
    }

    fileprivate enum State: Sendable {
        case connected(SMPFrameAssembler)
        case disconnected
        case failed(SMPClientError)
    }

    public let configuration: Configuration
    /// Current limits; the write size changes with each link.
    public private(set) var budget: SMPPacketBudget
    /// The version new requests go out in (changes when the device asks for the other one).
    public private(set) var version: SMPVersion
    private var state: State
    private var outstanding: SMPOutstandingRequests
    private var announcedDeadline: MonotonicInstant?
    /// Whether the device has answered any request of this client (`dropsLeftoverReplies`).
    private var hasBeenAnswered = false

    public init(budget: SMPPacketBudget, configuration: Configuration = Configuration(), startingSequence: UInt8 = 0) {
        self.configuration = configuration
        self.budget = budget
        self.version = configuration.version
        outstanding = SMPOutstandingRequests(startingSequence: startingSequence)
        if let problem = budget.problem {
            state = .failed(.invalidBudget(problem))
        } else {
            state = .connected(SMPFrameAssembler(maximumFrameSize: configuration.maxResponseSize))
        }
    }

    /// The earliest request deadline (quinn's `poll_timeout`).
    public var nextDeadline: MonotonicInstant? { outstanding.earliestDeadline }

    /// Requests sent and not yet answered.
    public var requestsInFlight: Int { outstanding.count }

    /// The failure that stopped the client, if any.
    public var failure: SMPClientError? {
        if case .failed(let error) = state { return error }
        return nil
    }

    public mutating func handle(_ event: Event, now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        switch (state, event) {
        case (.connected, .send(let id, let message, let timeout)):
            send(id, message, timeout: timeout, isVersionRetry: false, now: now, into: &actions)
        case (.connected(var assembler), .notification(let bytes)):
            let frame: SMPFrame?
            do {
                frame = try assembler.append(bytes)
                state = .connected(assembler)
            } catch {
                fail(.remoteProtocolViolation(.malformedFrame(error)), into: &actions)
                frame = nil
            }
            if let frame { receive(frame, now: now, into: &actions) }
        case (.connected, .timerFired):
            for entry in outstanding.retireExpired(at: now) {
                let summary = SMPRequestMessageSummary(op: entry.message.op, group: entry.message.group,
                                                       command: entry.message.command)
                actions.append(.finished(entry.id, .failure(.timeout(summary, after: entry.timeout))))
            }
        case (.connected, .linkLost):
            for entry in outstanding.retireAll() { actions.append(.finished(entry.id, .failure(.linkLost))) }
            state = .disconnected
        case (.disconnected, .send(let id, _, _)):
            actions.append(.finished(id, .failure(.linkLost)))
        case (.disconnected, .linkLost), (.disconnected, .timerFired):
            break
        case (.disconnected, .linkRestored(let maxWriteSize)):
            budget.maxWriteSize = maxWriteSize
            if let problem = budget.problem {
                fail(.invalidBudget(problem), into: &actions)
            } else {
                state = .connected(SMPFrameAssembler(maximumFrameSize: configuration.maxResponseSize))
            }
        case (.connected, .deviceLimits(let bufferSize, let reassembles)),
             (.disconnected, .deviceLimits(let bufferSize, let reassembles)):
            budget.deviceBufferSize = bufferSize
            budget.deviceReassembles = reassembles
            if let problem = budget.problem { fail(.invalidBudget(problem), into: &actions) }
        case (.failed(let error), .send(let id, _, _)):
            actions.append(.finished(id, .failure(error)))
        case (.failed, _):
            break
        case (.connected, .linkRestored), (.disconnected, .notification):
            fail(.localProtocolViolation(event: event.name, state: state.name), into: &actions)
        }
        if outstanding.earliestDeadline != announcedDeadline {
            announcedDeadline = outstanding.earliestDeadline
            actions.append(.timer(at: announcedDeadline))
        }
        return actions
    }

    private mutating func send(_ id: SMPRequestID, _ message: SMPRequestMessage, timeout: Duration,
                               isVersionRetry: Bool, now: MonotonicInstant, into actions: inout [Action]) {
        guard let sequence = outstanding.freeSequence() else {
            actions.append(.finished(id, .failure(.noFreeSequence)))
            return
        }
        let packet = message.packet(sequence: sequence, version: version)
        let bytes: [UInt8]
        do {
            bytes = try packet.encoded()
        } catch {
            // Only `bodyTooLarge` is possible here: the body does not fit the 16-bit length.
            actions.append(.finished(id, .failure(.requestTooLarge(size: Int(UInt16.max) + 1, limit: budget.maxPacketSize))))
            return
        }
        guard bytes.count <= budget.maxPacketSize else {
            actions.append(.finished(id, .failure(.requestTooLarge(size: bytes.count, limit: budget.maxPacketSize))))
            return
        }
        let writes: [[UInt8]]
        do {
            writes = try SMPFragmenter.split(bytes, maxWriteSize: budget.maxWriteSize)
        } catch {
            // The budget was checked when the link came up, so this is unreachable; still no trap.
            actions.append(.finished(id, .failure(.invalidBudget(error.description))))
            return
        }
        outstanding.insert(.init(id: id, message: message, header: packet.header, timeout: timeout,
                                 deadline: now + timeout, isVersionRetry: isVersionRetry))
        actions.append(contentsOf: writes.map(Action.write))
    }

    private mutating func receive(_ frame: SMPFrame, now: MonotonicInstant, into actions: inout [Action]) {
        let header = frame.header
        guard header.op.isResponse else {
            fail(.remoteProtocolViolation(.notAResponse(header)), into: &actions)
            return
        }
        let mayBeLeftover = configuration.dropsLeftoverReplies && !hasBeenAnswered
        guard let entry = outstanding.entry(sequence: header.sequence) else {
            // A reply to a request we stopped waiting for (late or duplicated) is harmless.
            if !outstanding.isRetired(header.sequence) && !mayBeLeftover {
                fail(.remoteProtocolViolation(.unexpectedSequence(header)), into: &actions)
            }
            return
        }
        guard header.answers(entry.header) else {
            if mayBeLeftover { return }
            fail(.remoteProtocolViolation(.mismatchedResponse(request: entry.header, response: header)), into: &actions)
            return
        }
        let packet: SMPPacket
        let status: SMPStatus
        do {
            packet = try SMPPacket(frame: frame, limits: configuration.bodyLimits)
        } catch {
            fail(.remoteProtocolViolation(.malformedBody(header, reason: error.description)), into: &actions)
            return
        }
        do {
            status = try SMPStatus(body: packet.body)
        } catch {
            fail(.remoteProtocolViolation(.malformedBody(header, reason: error.description)), into: &actions)
            return
        }
        outstanding.retire(sequence: header.sequence)
        hasBeenAnswered = true
        switch status {
        case .success:
            actions.append(.finished(entry.id, .success(packet)))
        case .failure(let error):
            if let other = versionToRetry(after: error, entry: entry) {
                version = other
                send(entry.id, entry.message, timeout: entry.timeout, isVersionRetry: true, now: now, into: &actions)
            } else {
                actions.append(.finished(entry.id, .failure(.refused(error))))
            }
        }
    }

    /// The version to re-send in when the device refused this one, once per request.
    private func versionToRetry(after error: SMPError, entry: SMPOutstandingRequests.Entry) -> SMPVersion? {
        guard configuration.negotiatesVersion, !entry.isVersionRetry else { return nil }
        switch error.mcumgrError {
        case .protocolTooNew? where entry.header.version > .v1: return .v1
        case .protocolTooOld? where entry.header.version < .v2: return .v2
        default: return nil
        }
    }

    private mutating func fail(_ error: SMPClientError, into actions: inout [Action]) {
        for entry in outstanding.retireAll() { actions.append(.finished(entry.id, .failure(error))) }
        state = .failed(error)
        actions.append(.failed(error))
    }
}

extension SMPClientCore.Event {
    /// For error messages: the case without its payload (which may hold image data).
    var name: String {
        switch self {
        case .send: return "send"
        case .notification: return "notification"
        case .timerFired: return "timerFired"
        case .linkLost: return "linkLost"
        case .linkRestored: return "linkRestored"
        case .deviceLimits: return "deviceLimits"
        }
    }
}

extension SMPClientCore.State {
    var name: String {
        switch self {
        case .connected: return "connected"
        case .disconnected: return "disconnected"
        case .failed: return "failed"
        }
    }
}
