/// MCUboot image upload over SMP as a value-type state machine (sans-I/O), on top of an
/// `SMPClientCore` it owns for the duration. The driver feeds link events and wake-ups into
/// `handle(_:now:)` and carries out the returned actions in order.
///
/// The device is the source of truth: every reply's `off` is the next byte it wants.
///
///     state      event / reply                        next       actions
///     ready      start                                opening    progress(0), write first packet (len, sha, …)
///     ready      start, bad job or budget             failed     failed(invalidJob | packetTooSmall | client)
///     opening    reply to first packet, off > 0       streaming  progress, write chunks up to the window
///     opening    reply to first packet, off == 0      opening    write first packet again (counts a failure)
///     opening    reply to a stale request             opening    — (says nothing about the new session)
///     opening    first packet's deadline              opening    write it again (counts a failure)
///     streaming  reply off == end of its chunk        streaming  progress, write chunks to refill the window
///     streaming  reply off < end (current epoch)      streaming  rewind: new epoch, resend from off (failure)
///     streaming  reply off > end                      streaming  continue from off (the device is ahead)
///     streaming  stale reply                          streaming  only moves forward, never rewinds
///     streaming  reply off == 0 (current epoch)       opening    device lost the session: full first packet
///     streaming  chunk deadline, device short of it   streaming  new epoch, resend from the device's off (failure)
///     opening,   any reply off == len                 completed  progress(len), completed(match)
///      streaming reply off > len, or > bytes sent     failed     failed(remoteProtocolViolation)
///                (a first packet's reply may exceed what was sent: the device resumes)
///     opening,   reply rc 10 (MGMT_ERR_EBUSY),        pausing    — (nothing is sent until the backoff ends;
///      streaming current epoch                                   counts against the busy budget)
///     pausing    backoff over                         opening |  first packet again | chunks from the
///                                                     streaming  device's offset (a new epoch)
///     pausing    replies to earlier requests          pausing    only move the device's offset forward
///                reply with an SMP error              failed     failed(refused(error))
///                n-th failure at one offset           failed     failed(timeout | retriesExhausted)
///                n-th busy answer at one offset       failed     failed(deviceBusy)
///                client failure (bad frame, CBOR…)    failed     failed(remoteProtocolViolation | client)
///                linkLost                             parked     — (everything in flight is forgotten)
///     parked     linkRestored, job without slotHash   opening    write the 32-byte resume probe (len, sha)
///     parked     linkRestored, job with slotHash      checking   write an image state read
///     checking   image list: slot 1 holds slotHash    completed  progress(len), completed(nil) (the device
///                                                                wrote the last chunk, its reply was lost)
///     checking   any other answer, refusal, deadline  opening    write the 32-byte resume probe (len, sha)
///     checking   linkLost                             parked     —
///     parked     deadline passed                      failed     failed(linkNotRestored)
///     parked     linkLost; any state: early timer     same       —
///     completed, failed: any event                    same       —
///     any other (state, event)                        failed     failed(localProtocolViolation)
///
/// A failure counts against the offset the upload is trying to get past: the device's offset for
/// a rewind or deadline, the offset the session was lost at for a restart and its first packet.
/// Counts are never reset, so a device that keeps sending us back cannot loop forever.
///
/// After any event `.timer(at:)` is returned when the earliest deadline changed. Every waiting state
/// has one: opening, checking and streaming through their requests' deadlines, parked through
/// `linkRestoreTimeout`.
public struct ImageUploadCore: Sendable {
    public let job: ImageUploadJob
    public let configuration: ImageUploadConfiguration
    /// The SMP client, handed back to the caller (with its sequence numbers) when the upload ends.
    public private(set) var client: SMPClientCore
    /// The id the next request will get; a caller sharing the client continues from it.
    public private(set) var nextRequestID: SMPRequestID
    public private(set) var statistics = ImageUploadStatistics()
    /// The device's last reported offset.
    public private(set) var progress: ImageUploadProgress
    /// Read by the state's own file (`ImageUploadCore+State.swift`); changed only here.
    private(set) var state: State = .ready
    private var window: UploadWindow
    /// End of the furthest chunk ever sent: a reply claiming more is a lie.
    private var highestSent: UInt64 = 0
    private var failures: UploadFailureBudget
    private var busyBackoff: UploadBusyBackoff
    private var announcedDeadline: MonotonicInstant?

    public init(job: ImageUploadJob, configuration: ImageUploadConfiguration, client: SMPClientCore,
                firstRequestID: SMPRequestID = SMPRequestID(0)) {
        self.job = job
        self.configuration = configuration
        self.client = client
        nextRequestID = firstRequestID
        progress = ImageUploadProgress(acknowledged: 0, total: job.length)
        window = UploadWindow(capacity: max(1, configuration.window))
        failures = UploadFailureBudget(perOffset: configuration.maxFailuresPerOffset)
        busyBackoff = UploadBusyBackoff(base: configuration.busyBackoff, cap: configuration.busyBackoffCap,
                                        limit: configuration.maxBusyPerOffset)
    }

    /// Upload requests sent and not yet answered or given up on (never above the window).
    public var requestsInFlight: Int { window.count }

    public mutating func handle(_ event: Event, now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        switch (state, event) {
        case (.ready, .start):
            start(now: now, into: &actions)
        case (.opening, .notification(let bytes)), (.streaming, .notification(let bytes)),
             (.checking, .notification(let bytes)), (.pausing, .notification(let bytes)):
            drive(.notification(bytes), now: now, into: &actions)
        case (.opening, .timerFired), (.streaming, .timerFired), (.checking, .timerFired):
            drive(.timerFired, now: now, into: &actions)
        case (.pausing, .timerFired):
            drive(.timerFired, now: now, into: &actions)
            if case .pausing(let until, let resume) = state, now >= until { endPause(resume, now: now, into: &actions) }
        case (.opening, .linkLost), (.streaming, .linkLost), (.checking, .linkLost), (.pausing, .linkLost):
            park(now: now, into: &actions)
        case (.parked(let until), .timerFired):
            if now >= until { fail(.linkNotRestored(after: configuration.linkRestoreTimeout), into: &actions) }
        case (.parked, .linkRestored(let maxWriteSize)):
            drive(.linkRestored(maxWriteSize: maxWriteSize), now: now, into: &actions)
            if case .parked = state { restore(now: now, into: &actions) }
        case (.parked, .linkLost), (.ready, .timerFired), (.completed, _), (.failed, _):
            break
        case (.ready, _), (.opening, _), (.streaming, _), (.pausing, _), (.parked, _), (.checking, _):
            fail(.localProtocolViolation(event: event.name, state: state.name), into: &actions)
        }
        if nextDeadline != announcedDeadline {
            announcedDeadline = nextDeadline
            actions.append(.timer(at: announcedDeadline))
        }
        return actions
    }

    // MARK: - Transitions

    private mutating func start(now: MonotonicInstant, into actions: inout [Action]) {
        if let problem = job.problem ?? configuration.problem {
            fail(.invalidJob(problem), into: &actions)
            return
        }
        if let failure = client.failure {
            fail(ImageUploadError(failure), into: &actions)
            return
        }
        // Progress 0 only once the first packet can go: a link too small fails without it.
        var first: [Action] = []
        sendFirstPacket(.start, now: now, into: &first)
        if !isFinished { actions.append(.progress(progress)) }
        actions += first
    }

    private mutating func park(now: MonotonicInstant, into actions: inout [Action]) {
        state = .parked(until: now + configuration.linkRestoreTimeout)
        statistics.linkLosses += 1
        drive(.linkLost, now: now, into: &actions)
        window.removeAll()
    }

    /// On a new link: ask whether slot 1 already holds the image when the job says how to tell,
    /// else resume with the probe.
    private mutating func restore(now: MonotonicInstant, into actions: inout [Action]) {
        guard job.slotHash != nil else {
            sendFirstPacket(.resume(from: progress.acknowledged), now: now, into: &actions)
            return
        }
        let id = allocateID()
        state = .checking(id)
        drive(.send(id, SMPRequestMessage(ImageStateReadRequest()), timeout: configuration.chunkTimeout),
              now: now, into: &actions)
    }

    /// The answer to the image state read after a link came back. Only an image list showing this
    /// image in slot 1 ends the upload; anything else resumes it as if no question had been asked.
    private mutating func checked(_ result: Result<SMPPacket, SMPClientError>, now: MonotonicInstant,
                                  into actions: inout [Action]) {
        switch result {
        case .success(let packet):
            if let slotHash = job.slotHash, let list = try? ImageStateResponse(body: packet.body),
               list.secondarySlotHolds(slotHash, image: job.imageNumber ?? 0) {
                acknowledge(job.length, into: &actions)
                state = .completed
                actions.append(.completed(match: nil))
                return
            }
        case .failure(.linkLost):
            park(now: now, into: &actions)
            return
        case .failure:
            break
        }
        sendFirstPacket(.resume(from: progress.acknowledged), now: now, into: &actions)
    }

    /// A reply to one of our requests, already decoded.
    private mutating func replied(_ chunk: UploadWindow.Chunk, id: SMPRequestID, _ reply: ImageUploadResponse,
                                  now: MonotonicInstant, into actions: inout [Action]) {
        let offset = reply.offset
        let length = job.length
        guard offset <= length else {
            fail(.remoteProtocolViolation(.offsetBeyondLength(offset: offset, length: length)), into: &actions)
            return
        }
        // A first packet may be answered with more than it carried: the device resumes a session.
        guard chunk.isFirstPacket || offset <= highestSent else {
            fail(.remoteProtocolViolation(.offsetBeyondSent(offset: offset, sent: highestSent)), into: &actions)
            return
        }
        if offset == length {
            guard reply.match != false else {
                fail(.imageMismatch, into: &actions)
                return
            }
            acknowledge(length, into: &actions)
            state = .completed
            actions.append(.completed(match: reply.match))
            return
        }
        switch state {
        case .opening(let firstID, let kind):
            // Replies to requests sent before this first packet say nothing about the session it opens.
            guard id == firstID else { return }
            if offset == 0 {
                guard countFailure(at: kind.failureOffset, .retry, into: &actions) else { return }
                sendFirstPacket(kind, now: now, into: &actions)
                return
            }
            acknowledge(offset, into: &actions)
            state = .streaming(nextOffset: offset)
        case .streaming(var next):
            let current = window.isCurrent(chunk)
            if offset == 0 {
                // Stale zeros come from the same loss that a current reply (or deadline) reports.
                guard current else { break }
                statistics.sessionRestarts += 1
                let lostAt = progress.acknowledged
                guard countFailure(at: lostAt, .retry, into: &actions) else { return }
                acknowledge(0, into: &actions)
                sendFirstPacket(.restart(from: lostAt), now: now, into: &actions)
                return
            }
            if current && offset < chunk.end {
                // The device did not take this chunk and wants `offset`: resend from there. Replies
                // to everything already in flight become stale and cannot rewind us again.
                statistics.rewinds += 1
                guard countFailure(at: offset, .retry, into: &actions) else { return }
                window.startEpoch()
                acknowledge(offset, into: &actions)
                next = offset
            } else if offset > progress.acknowledged {
                acknowledge(offset, into: &actions)
                next = max(next, offset)
            }
            state = .streaming(nextOffset: next)
        case .pausing:
            // Replies to requests sent before the busy answer: the device's offset, never a rewind.
            if offset > progress.acknowledged { acknowledge(offset, into: &actions) }
            return
        case .ready, .parked, .checking, .completed, .failed:
            return
        }
        fillWindow(now: now, into: &actions)
    }

    /// The device answered `MGMT_ERR_EBUSY` (rc 10, "blocked by another command",
    /// include/zephyr/mgmt/mcumgr/mgmt/mgmt_defines.h): it did not take the request, so ask again at
    /// the same offset once the backoff is over. Busy answers to requests of an earlier epoch
    /// repeat what the current one said and are not counted.
    private mutating func busy(_ chunk: UploadWindow.Chunk, id: SMPRequestID, now: MonotonicInstant,
                               into actions: inout [Action]) {
        let resume: Resume
        let offset: UInt64
        switch state {
        case .opening(let firstID, let kind):
            guard id == firstID else { return }
            (resume, offset) = (.firstPacket(kind), kind.failureOffset)
        case .streaming:
            guard window.isCurrent(chunk) else {
                fillWindow(now: now, into: &actions)
                return
            }
            (resume, offset) = (.chunks(from: progress.acknowledged), progress.acknowledged)
        case .ready, .pausing, .parked, .checking, .completed, .failed:
            return
        }
        switch busyBackoff.next(at: offset) {
        case .failure(let exhausted):
            fail(exhausted, into: &actions)
        case .success(let delay):
            statistics.busyPauses += 1
            // Everything still in flight was sent before the device said busy: stale from now on.
            window.startEpoch()
            state = .pausing(until: now + delay, resume: resume)
        }
    }

    private mutating func endPause(_ resume: Resume, now: MonotonicInstant, into actions: inout [Action]) {
        switch resume {
        case .firstPacket(let kind):
            sendFirstPacket(kind, now: now, into: &actions)
        case .chunks(let from):
            state = .streaming(nextOffset: max(from, progress.acknowledged))
            fillWindow(now: now, into: &actions)
        }
    }

    private mutating func timedOut(_ chunk: UploadWindow.Chunk, id: SMPRequestID, now: MonotonicInstant,
                                   into actions: inout [Action]) {
        statistics.timeouts += 1
        switch state {
        case .opening(let firstID, let kind):
            guard id == firstID else { return }
            guard countFailure(at: kind.failureOffset, .timeout, into: &actions) else { return }
            sendFirstPacket(kind, now: now, into: &actions)
        case .streaming:
            // A chunk the device has since acknowledged (its reply was lost) or a stale one only
            // frees its slot; otherwise resend from the device's last reported offset.
            if window.isCurrent(chunk) && progress.acknowledged < chunk.end {
                guard countFailure(at: progress.acknowledged, .timeout, into: &actions) else { return }
                window.startEpoch()
                state = .streaming(nextOffset: progress.acknowledged)
            }
            fillWindow(now: now, into: &actions)
        case .ready, .pausing, .parked, .checking, .completed, .failed:
            return
        }
    }

    // MARK: - Sending

    private mutating func sendFirstPacket(_ kind: UploadFirstPacket, now: MonotonicInstant, into actions: inout [Action]) {
        let minimum = ImageUploadJob.minimumFirstChunk
        guard let fit = UploadChunkSizer.dataCount(for: job.firstPacketTemplate(), budget: client.budget,
                                                   remaining: job.image.count),
              fit >= minimum
        else {
            let needed = (try? SMPRequestMessage(job.firstPacketTemplate(data: Array(job.image.prefix(minimum))))
                .packet(sequence: 0, version: client.version).encoded().count) ?? 0
            fail(.packetTooSmall(packetSize: client.budget.maxPacketSize, needed: needed), into: &actions)
            return
        }
        // The first packet opens a new epoch: nothing sent before it can move the upload backwards.
        window.startEpoch()
        let id = allocateID()
        state = .opening(id, kind)
        let count: Int
        if case .resume = kind { count = minimum } else { count = fit }
        send(id, offset: 0, count: count, timeout: configuration.firstChunkTimeout,
             now: now, into: &actions)
    }

    /// Sends chunks from `nextOffset` while the window has room.
    private mutating func fillWindow(now: MonotonicInstant, into actions: inout [Action]) {
        while case .streaming(let next) = state, window.hasRoom, next < job.length {
            let remaining = Int(job.length - next)
            guard let count = UploadChunkSizer.dataCount(for: ImageUploadRequest(offset: next, data: []),
                                                         budget: client.budget, remaining: remaining)
            else {
                fail(.packetTooSmall(packetSize: client.budget.maxPacketSize, needed: SMPHeader.size + 16),
                     into: &actions)
                return
            }
            let end = next + UInt64(count)
            state = .streaming(nextOffset: end)
            let timeout = end == job.length ? configuration.lastChunkTimeout : configuration.chunkTimeout
            send(allocateID(), offset: next, count: count, timeout: timeout, now: now, into: &actions)
        }
        // Never wait on nothing: everything is sent and answered, yet the device has not reported
        // the end (unreachable with a device that answers by the rules). Ask again from its offset.
        if case .streaming(let next) = state, window.isEmpty, next >= job.length {
            guard countFailure(at: progress.acknowledged, .retry, into: &actions) else { return }
            window.startEpoch()
            state = .streaming(nextOffset: progress.acknowledged)
            fillWindow(now: now, into: &actions)
        }
    }

    private mutating func send(_ id: SMPRequestID, offset: UInt64, count: Int, timeout: Duration,
                               now: MonotonicInstant, into actions: inout [Action]) {
        window.add(id, offset: offset, count: count, isFirstPacket: offset == 0)
        highestSent = max(highestSent, offset + UInt64(count))
        statistics.requestsSent += 1
        statistics.dataBytesSent += UInt64(count)
        let request = job.request(offset: offset, count: count)
        drive(.send(id, SMPRequestMessage(request), timeout: timeout), now: now, into: &actions)
    }

    // MARK: - The client underneath

    /// Feeds the client and turns its actions into ours.
    private mutating func drive(_ event: SMPClientCore.Event, now: MonotonicInstant, into actions: inout [Action]) {
        for action in client.handle(event, now: now) {
            if isFinished { return }
            switch action {
            case .write(let bytes):
                statistics.wireBytesSent += UInt64(bytes.count)
                actions.append(.write(bytes))
            case .timer:
                break // folded into our own deadline at the end of `handle`
            case .finished(let id, let result):
                if case .checking(let checkID) = state, id == checkID {
                    checked(result, now: now, into: &actions)
                    continue
                }
                // Not in the window: a request from before the upload, or one we parked away.
                guard let chunk = window.remove(id) else { continue }
                finished(chunk, id: id, result, now: now, into: &actions)
            case .failed(let error):
                fail(ImageUploadError(error), into: &actions)
            }
        }
    }

    private mutating func finished(_ chunk: UploadWindow.Chunk, id: SMPRequestID, _ result: Result<SMPPacket, SMPClientError>,
                                   now: MonotonicInstant, into actions: inout [Action]) {
        switch result {
        case .success(let packet):
            do {
                let reply = try ImageUploadResponse(body: packet.body)
                replied(chunk, id: id, reply, now: now, into: &actions)
            } catch {
                fail(.remoteProtocolViolation(.malformedBody(packet.header, reason: error.description)), into: &actions)
            }
        case .failure(.timeout):
            timedOut(chunk, id: id, now: now, into: &actions)
        case .failure(.linkLost):
            // The client found the link down (e.g. it was lost before we started): wait for a new one.
            if case .parked = state { return }
            park(now: now, into: &actions)
        case .failure(.refused(let error)) where error.mcumgrError == .busy:
            busy(chunk, id: id, now: now, into: &actions)
        case .failure(.refused(let error)):
            fail(.refused(error, offset: chunk.offset), into: &actions)
        case .failure(let error):
            fail(ImageUploadError(error), into: &actions)
        }
    }

    // MARK: - Bookkeeping

    private mutating func acknowledge(_ offset: UInt64, into actions: inout [Action]) {
        guard offset != progress.acknowledged else { return }
        progress.acknowledged = offset
        actions.append(.progress(progress))
    }

    /// Counts a failure at `offset`; false (and the upload failed) at the configured maximum.
    private mutating func countFailure(at offset: UInt64, _ kind: UploadFailureBudget.Kind,
                                       into actions: inout [Action]) -> Bool {
        guard let exhausted = failures.spend(at: offset, kind) else { return true }
        fail(exhausted, into: &actions)
        return false
    }

    private mutating func allocateID() -> SMPRequestID {
        defer { nextRequestID = nextRequestID.next }
        return nextRequestID
    }

    private mutating func fail(_ error: ImageUploadError, into actions: inout [Action]) {
        guard !isFinished else { return }
        state = .failed(error)
        actions.append(.failed(error))
    }
}
