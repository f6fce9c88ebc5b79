import DFUCore

/// The core, fed one event at a time, and what is checked of what it does.
extension UploadExchange {
    mutating func feed(_ event: ImageUploadCore.Event) {
        wholeImageAnswered = false
        if case .notification(let bytes) = event { observe(bytes) }
        let requestsBefore = requestCount
        let actions = core.handle(event, now: now)
        if finished {
            require(actions.isEmpty, "\(actions.count) actions after the end")
            return
        }
        for action in actions {
            switch action {
            case .write(let bytes):
                received(bytes)
            case .timer:
                break
            case .progress(let progress):
                require(progress.total == job.length && progress.acknowledged <= progress.total, "progress \(progress)")
                require(reportedOffsets.contains(progress.acknowledged)
                        || (wholeImageAnswered && progress.acknowledged == job.length),
                        "progress to \(progress.acknowledged), an offset the device never reported")
            case .completed(let match):
                end()
                require(wholeImageAnswered, "completed, yet no answer in this event acknowledged the whole image")
                require(match != false, "completed although the device reported a mismatch")
            case .failed(let error):
                end()
                switch error {
                case .localProtocolViolation, .invalidJob: require(false, "failed with \(error)")
                default: _ = error.description
                }
            }
        }
        require(finished == core.isFinished, "the core's end and its actions disagree")
        require(core.requestsInFlight <= core.configuration.window,
                "\(core.requestsInFlight) upload requests in flight, window \(core.configuration.window)")
        require(requests.isIdle, "a packet's writes spread over two events")
        // Each answer or deadline frees one request; no event sends more than that and a window.
        let window = core.configuration.window
        require(requestCount - requestsBefore <= 2 * window + 2, "\(requestCount - requestsBefore) requests in one event, window \(window)")
    }

    /// What the client makes of a notification: offsets it was told, whether the whole image was acknowledged.
    mutating func observe(_ bytes: [UInt8]) {
        guard let frame = try? answers.append(bytes), let packet = try? SMPPacket(frame: frame),
              case .success? = try? SMPStatus(body: packet.body) else { return }
        let header = packet.header
        if header.op == .writeResponse, header.group == .image, header.command == ImageUploadRequest.command,
           let reply = try? ImageUploadResponse(body: packet.body) {
            reportedOffsets.insert(reply.offset)
            if reply.offset == job.length && reply.match != false { wholeImageAnswered = true }
        }
        if header.op == .readResponse, header.group == .image, header.command == ImageStateReadRequest.command,
           let slotHash = job.slotHash, let list = try? ImageStateResponse(body: packet.body),
           list.slot(1, image: job.imageNumber ?? 0)?.hash == slotHash {
            wholeImageAnswered = true
        }
    }

    /// One write of the core, as the device receives it.
    mutating func received(_ write: [UInt8]) {
        require(linkUp, "a write while the link is down")
        require(write.count <= writeSize, "a write of \(write.count) bytes on a link that takes \(writeSize)")
        let frame: SMPFrame?
        do {
            frame = try requests.append(write)
        } catch {
            require(false, "the core's writes do not frame: \(error)")
            return
        }
        guard let frame else { return }
        let size = frame.encoded().count
        require(size <= core.client.budget.maxPacketSize, "a \(size)-byte packet, budget \(core.client.budget)")
        let packet: SMPPacket
        do {
            packet = try SMPPacket(frame: frame)
        } catch {
            require(false, "a request that does not decode: \(error)")
            return
        }
        if ImageUploadRequest.matches(packet.header) {
            do {
                check(try ImageUploadRequest(body: packet.body))
            } catch {
                require(false, "an upload request that does not decode: \(error)")
            }
        }
        lastRequest = frame.header
        requestCount += 1
        inbox.append(frame)
    }

    func check(_ chunk: ImageUploadRequest) {
        let start = chunk.offset
        let count = UInt64(chunk.data.count)
        require(start < job.length && count <= job.length - start,
                "a chunk of \(count) bytes at \(start), outside the \(job.length)-byte image")
        require(chunk.data[...] == image[Int(start) ..< Int(start + count)], "the chunk at \(start) does not carry the image's bytes")
        if start == 0 {
            require(chunk.length == job.length && chunk.sha == job.sha256 && chunk.image == job.imageNumber
                    && chunk.upgrade == (job.upgradeOnly ? true : nil), "a first packet without the job's fields")
            require(chunk.data.count >= ImageUploadJob.minimumFirstChunk, "a first packet of \(chunk.data.count) bytes")
        } else {
            require(count > 0 && chunk.length == nil && chunk.sha == nil && chunk.image == nil,
                    "a chunk at \(start) with no data or first-packet fields")
        }
    }
}
