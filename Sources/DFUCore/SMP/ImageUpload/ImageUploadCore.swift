import Transport

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
///     streaming  n-th chunk deadline in a row at one  resyncing  write an echo (links without a loss signal,
///                offset (`silentTimeoutsBeforeResync`)           `resyncAfterSilence` set; `UploadResync`)
///     resyncing  echo answered, refused or deadline   opening    write the 32-byte resume probe (resync)
///     opening    resync probe's deadline              resyncing  write an echo again, until the resync's end
///     resyncing, resync's end passed                  failed     failed(deviceSilent)
///      opening
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
    public internal(set) var client: SMPClientCore
    /// The id the next request will get; a caller sharing the client continues from it.
    public internal(set) var nextRequestID: SMPRequestID
    public internal(set) var statistics = ImageUploadStatistics()
    /// The device's last reported offset.
    public internal(set) var progress: AcknowledgedProgress
    /// Read by the state's own file (`ImageUploadCore+State.swift`); changed only here.
    var state: State = .ready
    var window: UploadWindow
    /// End of the furthest chunk ever sent: a reply claiming more is a lie.
    var highestSent: UInt64 = 0
    var failures: UploadFailureBudget
    var busyBackoff: UploadBusyBackoff
    var announcedDeadline: MonotonicInstant?
    /// Chunk deadlines passed in a row without any answer from the device.
    var silentTimeouts = 0
    /// While a silent device is re-synchronised: when the upload gives up on it.
    var resyncUntil: MonotonicInstant?

    public init(job: ImageUploadJob, configuration: ImageUploadConfiguration, client: SMPClientCore,
                firstRequestID: SMPRequestID = SMPRequestID(0)) {
        self.job = job
        self.configuration = configuration
        self.client = client
        nextRequestID = firstRequestID
        progress = AcknowledgedProgress(acknowledged: 0, total: job.length)
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
             (.checking, .notification(let bytes)), (.pausing, .notification(let bytes)),
             (.resyncing, .notification(let bytes)):
            drive(.notification(bytes), now: now, into: &actions)
        case (.opening, .timerFired), (.streaming, .timerFired), (.checking, .timerFired), (.resyncing, .timerFired):
            drive(.timerFired, now: now, into: &actions)
        case (.pausing, .timerFired):
            drive(.timerFired, now: now, into: &actions)
            if case .pausing(let until, let resume) = state, now >= until { endPause(resume, now: now, into: &actions) }
        case (.opening, .linkLost), (.streaming, .linkLost), (.checking, .linkLost), (.pausing, .linkLost),
             (.resyncing, .linkLost):
            park(now: now, into: &actions)
        case (.parked(let until), .timerFired):
            if now >= until { fail(.linkNotRestored(after: configuration.linkRestoreTimeout), into: &actions) }
        case (.parked, .linkRestored(let maxWriteSize)):
            drive(.linkRestored(maxWriteSize: maxWriteSize), now: now, into: &actions)
            if case .parked = state { restore(now: now, into: &actions) }
        case (.parked, .linkLost), (.ready, .timerFired), (.completed, _), (.failed, _):
            break
        case (.ready, _), (.opening, _), (.streaming, _), (.pausing, _), (.parked, _), (.checking, _), (.resyncing, _):
            fail(.localProtocolViolation(event: event.name, state: state.name), into: &actions)
        }
        if nextDeadline != announcedDeadline {
            announcedDeadline = nextDeadline
            actions.append(.timer(at: announcedDeadline))
        }
        return actions
    }

    // MARK: - Transitions

    mutating func start(now: MonotonicInstant, into actions: inout [Action]) {
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

    mutating func park(now: MonotonicInstant, into actions: inout [Action]) {
        state = .parked(until: now + configuration.linkRestoreTimeout)
        statistics.linkLosses += 1
        drive(.linkLost, now: now, into: &actions)
        window.removeAll()
    }

    /// On a new link: ask whether slot 1 already holds the image when the job says how to tell,
    /// else resume with the probe.
    mutating func restore(now: MonotonicInstant, into actions: inout [Action]) {
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
    mutating func checked(_ result: Result<SMPPacket, SMPClientError>, now: MonotonicInstant,
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
    mutating func replied(_ chunk: UploadWindow.Chunk, id: SMPRequestID, _ reply: ImageUploadResponse,
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
        // The upload's first packet answered with more than it carried: the device held that much
        // already (an earlier upload of this image), which this one did not send.
        if case .opening(let firstID, .start) = state, id == firstID, offset > highestSent {
            progress.startOffset = offset
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
            resyncUntil = nil
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
        case .pausing, .resyncing:
            // Replies to requests sent before the busy answer or the silence: the device's offset,
            // never a rewind.
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
    mutating func busy(_ chunk: UploadWindow.Chunk, id: SMPRequestID, now: MonotonicInstant,
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
        case .ready, .pausing, .parked, .checking, .resyncing, .completed, .failed:
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

    mutating func endPause(_ resume: Resume, now: MonotonicInstant, into actions: inout [Action]) {
        switch resume {
        case .firstPacket(let kind):
            sendFirstPacket(kind, now: now, into: &actions)
        case .chunks(let from):
            state = .streaming(nextOffset: max(from, progress.acknowledged))
            fillWindow(now: now, into: &actions)
        }
    }

    mutating func timedOut(_ chunk: UploadWindow.Chunk, id: SMPRequestID, now: MonotonicInstant,
                                   into actions: inout [Action]) {
        statistics.timeouts += 1
        switch state {
        case .opening(let firstID, let kind):
            guard id == firstID else { return }
            if case .resync = kind {
                resyncRound(now: now, into: &actions)
                return
            }
            guard countFailure(at: kind.failureOffset, .timeout, into: &actions) else { return }
            sendFirstPacket(kind, now: now, into: &actions)
        case .streaming:
            // A chunk the device has since acknowledged (its reply was lost) or a stale one only
            // frees its slot; otherwise resend from the device's last reported offset.
            if window.isCurrent(chunk) && progress.acknowledged < chunk.end {
                silentTimeouts += 1
                if configuration.resyncAfterSilence != nil, silentTimeouts >= configuration.silentTimeoutsBeforeResync {
                    beginResync(now: now, into: &actions)
                    return
                }
                guard countFailure(at: progress.acknowledged, .timeout, into: &actions) else { return }
                window.startEpoch()
                state = .streaming(nextOffset: progress.acknowledged)
            }
            fillWindow(now: now, into: &actions)
        case .ready, .pausing, .parked, .checking, .resyncing, .completed, .failed:
            return
        }
    }
}
