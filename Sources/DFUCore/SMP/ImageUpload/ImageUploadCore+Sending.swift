import Transport

/// The upload core's sending side: the first packet, filling the window, the SMP client core
/// underneath and the bookkeeping every transition shares (acknowledgements, failure budget,
/// request IDs, the end of the run). The transitions themselves are in `ImageUploadCore.swift`.
extension ImageUploadCore {
    // MARK: - Sending

    mutating func sendFirstPacket(_ kind: UploadFirstPacket, now: MonotonicInstant, into actions: inout [Action]) {
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
        let count = kind.isProbe ? minimum : fit
        // A resync's probe waits a chunk's deadline: the device erases nothing to answer it.
        var timeout = configuration.firstChunkTimeout
        if case .resync = kind { timeout = configuration.chunkTimeout }
        send(id, offset: 0, count: count, timeout: timeout, now: now, into: &actions)
    }

    /// Sends chunks from `nextOffset` while the window has room.
    mutating func fillWindow(now: MonotonicInstant, into actions: inout [Action]) {
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

    mutating func send(_ id: SMPRequestID, offset: UInt64, count: Int, timeout: Duration,
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
    mutating func drive(_ event: SMPClientCore.Event, now: MonotonicInstant, into actions: inout [Action]) {
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
                if case .resyncing(let echoID, _) = state, id == echoID {
                    echoed(result, now: now, into: &actions)
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

    mutating func finished(_ chunk: UploadWindow.Chunk, id: SMPRequestID, _ result: Result<SMPPacket, SMPClientError>,
                                   now: MonotonicInstant, into actions: inout [Action]) {
        switch result {
        case .success(let packet):
            // The device answers: whatever it says, it is not silent.
            silentTimeouts = 0
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

    mutating func acknowledge(_ offset: UInt64, into actions: inout [Action]) {
        guard offset != progress.acknowledged else { return }
        progress.acknowledged = offset
        actions.append(.progress(progress))
    }

    /// Counts a failure at `offset`; false (and the upload failed) at the configured maximum.
    mutating func countFailure(at offset: UInt64, _ kind: UploadFailureBudget.Kind,
                                       into actions: inout [Action]) -> Bool {
        guard let exhausted = failures.spend(at: offset, kind) else { return true }
        fail(exhausted, into: &actions)
        return false
    }

    mutating func allocateID() -> SMPRequestID {
        defer { nextRequestID = nextRequestID.next }
        return nextRequestID
    }

    mutating func fail(_ error: ImageUploadError, into actions: inout [Action]) {
        guard !isFinished else { return }
        state = .failed(error)
        actions.append(.failed(error))
    }
}
