// A whole image upload (ImageUploadCore over its SMPClientCore, as SMPSession drives them) against a
// device whose every answer the input chooses. Three bytes choose the link (packet budget, window),
// the image (32 to 2,072 bytes) and the job and upload options (slot hash, image number, resync,
// failures per offset); then each byte is one move of the device or the link, its parameters
// after it: an honest answer to the oldest request or to any, an answer at a chosen or a nearby
// offset, an error (busy, version, any rc, v1 or v2), a wrong sequence number, group, command, op
// or version, a duplicate, a body of any bytes, garbage, an answer cut in two, a lost request, a
// device that loses its session, silence (the clock jumps to the core's deadline), a wait, a lost
// link and a new one (of any write size). When the input ends the device answers honestly, or
// falls silent, as the first byte says.
//
// Checked, beyond not crashing: every write fits the link, and the writes of one event make whole
// packets that decode; every upload chunk lies inside the image and carries its bytes at its
// offset, and only a first packet (off 0) carries len and sha, the job's, with at least a header's
// worth of data; never more upload requests in flight than the window; every progress is an offset
// the device reported (or the whole image after the image list showed it in slot 1); completed
// only in the event whose answer acknowledged the whole image (off == len, match not false) or
// listed it in slot 1; one end, and nothing after it; a failure is a typed error, never the
// driver's bug (`localProtocolViolation`) or a bad job; no event sends more than two windows'
// worth of requests (and two); after the input, the upload ends within 20,000 honest answers or
// 1,000 deadlines (no livelock: every move before that is an input byte).
//
// Not checked, because the core does not promise it: that a device lying about its offset ends up
// with the image (the device's `off` is the truth the core follows, docs/engine.md).
// libFuzzer options: -max_len=2048
import DFUCore
import Transport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMPUploadExchange(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var exchange = UploadExchange(options: &input)
    exchange.run(&input)
    return 0
}

/// BLE links with and without reassembly, from a small MTU to Nordic's recommended 5 × 495.
private let budgets = [
    SMPPacketBudget(maxWriteSize: 64, deviceBufferSize: 256, deviceReassembles: true),
    SMPPacketBudget(maxWriteSize: 128),
    SMPPacketBudget(maxWriteSize: 244, deviceBufferSize: 1024, deviceReassembles: true),
    SMPPacketBudget(maxWriteSize: 495, deviceBufferSize: 2475, deviceReassembles: true),
]

private struct UploadExchange {
    let image: [UInt8]
    let job: ImageUploadJob
    let honestTail: Bool
    let firstWriteSize: Int
    var core: ImageUploadCore
    var device: UploadDevice
    var now = MonotonicInstant.zero
    var writeSize: Int
    var linkUp = true
    /// The device's reassembly of the core's writes.
    var requests = SMPFrameAssembler()
    /// Requests the device holds and has not answered, oldest first.
    var inbox: [SMPFrame] = []
    /// The header of the last request, for answers to something no longer waited for.
    var lastRequest: SMPHeader?
    var lastAnswer: [UInt8] = []
    /// The notifications reassembled as the client does, to know what the core was told.
    var answers = UploadExchange.clientAssembler()
    var reportedOffsets: Set<UInt64> = [0]
    /// Requests the device received, all told.
    var requestCount = 0
    /// Whether an answer in the event being fed acknowledged the whole image.
    var wholeImageAnswered = false
    var finished = false

    static func clientAssembler() -> SMPFrameAssembler {
        SMPFrameAssembler(maximumFrameSize: SMPClientCore.Configuration().maxResponseSize)
    }

    init(options input: inout FuzzInput) {
        let link = input.byte()
        let size = input.byte()
        let options = input.byte()
        let budget = budgets[Int(link & 3)]
        var configuration = ImageUploadConfiguration(window: 1 + Int(link >> 2 & 3),
                                                     maxFailuresPerOffset: 2 + Int(options & 3))
        if options & 0x04 != 0 { configuration.resyncAfterSilence = .seconds(20) }
        honestTail = link & 0x10 == 0
        var client = SMPClientCore.Configuration(version: link & 0x20 != 0 ? .v1 : .v2)
        client.dropsLeftoverReplies = link & 0x40 != 0
        image = exchangeImage(count: 32 + Int(size) * 8)
        guard let sha = try? SHA256.hash(image) else { fatalError("SHA-256 of the image failed") }
        job = ImageUploadJob(image: image, sha256: sha, imageNumber: options & 0x08 != 0 ? 1 : nil,
                             upgradeOnly: options & 0x10 != 0,
                             slotHash: options & 0x20 != 0 ? Array(sha.reversed()) : nil)
        core = ImageUploadCore(job: job, configuration: configuration,
                               client: SMPClientCore(budget: budget, configuration: client))
        device = UploadDevice(job: job, checksImage: options & 0x40 != 0)
        firstWriteSize = budget.maxWriteSize
        writeSize = budget.maxWriteSize
    }

    mutating func run(_ input: inout FuzzInput) {
        feed(.start)
        while !finished && !input.isEmpty { move(&input) }
        let limit = honestTail ? 20_000 : 1_000
        var moves = 0
        while !finished {
            moves += 1
            require(moves <= limit, "the upload did not end \(limit) moves after the input")
            if !honestTail {
                silence()
            } else if !linkUp {
                restore(writeSize: firstWriteSize)
            } else if !inbox.isEmpty {
                answer(inbox.removeFirst())
            } else {
                silence()
            }
        }
    }

    // MARK: - The device's and the link's moves

    mutating func move(_ input: inout FuzzInput) {
        let code = input.byte() % 16
        guard linkUp else {
            switch code {
            case 9: silence()
            case 10: wait(input.byte())
            case 11:
                let size = input.byte()
                restore(writeSize: size & 0x80 == 0 ? firstWriteSize : Int(size & 0x7F) * 4)
            default: restore(writeSize: firstWriteSize)
            }
            return
        }
        switch code {
        case 0:
            if inbox.isEmpty { silence() } else { answer(inbox.removeFirst()) }
        case 1:
            let offset = UInt64(input.uint16())
            let flags = input.byte()
            let response = ImageUploadResponse(offset: offset, match: flags & 1 == 0 ? nil : flags & 2 != 0,
                                               legacyReturnCode: flags & 4 != 0)
            reply(body: response.body)
        case 2:
            // Near where the device should be: the end of the oldest chunk, or the device's offset.
            let delta = Int64(Int8(bitPattern: input.byte()))
            let base = inbox.first.flatMap(chunkEnd) ?? device.session?.offset ?? 0
            let offset = UInt64(max(0, Int64(clamping: base) + delta))
            reply(body: ImageUploadResponse(offset: offset).body)
        case 3:
            let raw = input.byte()
            let form = input.byte()
            let rc: Int64 = [10, 12, 13, Int64(raw)][Int(form >> 2 & 3)]
            let error: SMPError = form & 1 == 0 ? .returnCode(rc, reason: nil)
                : .groupError(group: form & 2 == 0 ? .image : .os, rc: rc, reason: nil)
            if form & 0x10 != 0 { device.session = nil }
            reply(body: error.body)
        case 4:
            let index = Int(input.byte())
            if inbox.isEmpty { silence() } else { answer(inbox.remove(at: index % inbox.count)) }
        case 5:
            if !lastAnswer.isEmpty { send(lastAnswer) }
        case 6:
            let change = max(1, input.byte())
            if let frame = inbox.first {
                inbox.removeFirst()
                var packet = device.answer(frame)
                packet.header.sequence ^= change
                send(encode(packet))
            }
        case 7:
            let change = input.byte()
            if let frame = inbox.first {
                inbox.removeFirst()
                var packet = device.answer(frame)
                switch change & 3 {
                case 0: packet.header.group = SMPGroup(rawValue: packet.header.group.rawValue ^ UInt16(change >> 2 | 1))
                case 1: packet.header.command ^= change >> 2 | 1
                case 2:
                    // The request's own op, or the other response op.
                    let other: SMPOp = packet.header.op == .readResponse ? .writeResponse : .readResponse
                    packet.header.op = change & 4 == 0 ? frame.header.op : other
                default: packet.header.version = SMPVersion(rawValue: change >> 2 & 3) ?? .v1
                }
                send(encode(packet))
            }
        case 8:
            send(input.chunk())
        case 9:
            silence()
        case 10:
            wait(input.byte())
        case 11:
            loseLink()
        case 12:
            let cut = Int(input.byte())
            if let frame = inbox.first {
                inbox.removeFirst()
                let bytes = encode(device.answer(frame))
                let at = cut % (bytes.count + 1)
                send(Array(bytes[..<at]))
                send(Array(bytes[at...]))
            }
        case 13:
            if !inbox.isEmpty { inbox.removeFirst() }
        case 14:
            device.session = nil
        default:
            let body = input.chunk()
            if let header = inbox.first?.header ?? lastRequest {
                if !inbox.isEmpty { inbox.removeFirst() }
                send(header.responseHeader(length: UInt16(body.count)).encoded() + body)
            }
        }
    }

    /// The device's honest answer, a moment later.
    mutating func answer(_ frame: SMPFrame) {
        send(encode(device.answer(frame)))
    }

    /// An answer with this body to the oldest request (or, none waiting, to the last one).
    mutating func reply(body: CBORMap) {
        guard let header = inbox.first?.header ?? lastRequest else { return }
        if !inbox.isEmpty { inbox.removeFirst() }
        send(encode(SMPPacket.response(to: header, body: body)))
    }

    func chunkEnd(_ frame: SMPFrame) -> UInt64? {
        guard ImageUploadRequest.matches(frame.header), let packet = try? SMPPacket(frame: frame),
              let request = try? ImageUploadRequest(body: packet.body) else { return nil }
        return request.offset + UInt64(request.data.count)
    }

    func encode(_ packet: SMPPacket) -> [UInt8] {
        (try? packet.encoded()) ?? []
    }

    mutating func send(_ bytes: [UInt8]) {
        guard linkUp, !finished else { return }
        lastAnswer = bytes
        now = now + .milliseconds(1)
        feed(.notification(bytes))
    }

    mutating func silence() {
        now = max(now, core.nextDeadline ?? now + .seconds(1))
        feed(.timerFired)
    }

    mutating func wait(_ tenths: UInt8) {
        now = now + .milliseconds(100 * Int(tenths))
        feed(.timerFired)
    }

    mutating func loseLink() {
        linkUp = false
        inbox.removeAll()
        requests = SMPFrameAssembler()
        feed(.linkLost)
    }

    mutating func restore(writeSize size: Int) {
        now = now + .seconds(1)
        linkUp = true
        writeSize = size
        requests = SMPFrameAssembler()
        answers = Self.clientAssembler()
        feed(.linkRestored(maxWriteSize: size))
    }

    // MARK: - The core, and what is checked

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
                require(!finished, "a second end")
                require(wholeImageAnswered, "completed, yet no answer in this event acknowledged the whole image")
                require(match != false, "completed although the device reported a mismatch")
                finished = true
            case .failed(let error):
                require(!finished, "a second end")
                switch error {
                case .localProtocolViolation, .invalidJob: require(false, "failed with \(error)")
                default: _ = error.description
                }
                finished = true
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

/// Zephyr's img_mgmt upload handler, reduced (Tests' UploadTestDevice): the honest answers. It
/// takes a chunk at the offset it holds, resumes a session whose sha a first packet repeats,
/// answers any other offset with its own, refuses an overrun; echo and the image list too.
private struct UploadDevice {
    struct Session {
        var length: UInt64
        var sha: [UInt8]
        var offset: UInt64
    }

    let job: ImageUploadJob
    let checksImage: Bool
    var session: Session?
    /// Whether slot 1 holds the image (an upload completed).
    var slotHolds = false

    mutating func answer(_ frame: SMPFrame) -> SMPPacket {
        let header = frame.header
        guard let packet = try? SMPPacket(frame: frame) else { return .response(to: header, error: .mcumgr(.invalidValue)) }
        if OSEchoRequest.matches(header), let echo = try? OSEchoRequest(body: packet.body) {
            return OSEchoResponse(text: echo.text).response(to: header)
        }
        if ImageStateReadRequest.matches(header) {
            var images = [ImageSlotState(image: job.imageNumber, slot: 0, version: "1.0.0", hash: [UInt8](repeating: 0x11, count: 32),
                                         confirmed: true, active: true)]
            if slotHolds {
                images.append(ImageSlotState(image: job.imageNumber, slot: 1, version: "1.0.1", hash: job.slotHash ?? job.sha256))
            }
            return ImageStateResponse(images: images).response(to: header)
        }
        guard ImageUploadRequest.matches(header), let request = try? ImageUploadRequest(body: packet.body) else {
            return .response(to: header, error: .mcumgr(.notSupported))
        }
        switch upload(request) {
        case .success(let reply): return reply.response(to: header)
        case .failure(let error):
            session = nil
            return .response(to: header, error: error)
        }
    }

    private mutating func upload(_ request: ImageUploadRequest) -> Result<ImageUploadResponse, SMPError> {
        if request.offset == 0 {
            guard request.data.count >= ImageUploadJob.minimumFirstChunk else { return .failure(.image(.invalidImageHeader)) }
            guard let length = request.length else { return .failure(.image(.invalidLength)) }
            let sha = request.sha ?? []
            if !sha.isEmpty, let session, session.sha == sha, session.length == length {
                return .success(ImageUploadResponse(offset: session.offset))
            }
            session = Session(length: length, sha: sha, offset: 0)
            slotHolds = false
        }
        guard var current = session else { return .success(ImageUploadResponse(offset: 0)) }
        guard request.offset == current.offset else { return .success(ImageUploadResponse(offset: current.offset)) }
        guard request.offset + UInt64(request.data.count) <= current.length else { return .failure(.image(.imageDataOverrun)) }
        current.offset += UInt64(request.data.count)
        guard current.offset == current.length else {
            session = current
            return .success(ImageUploadResponse(offset: current.offset))
        }
        session = nil
        slotHolds = true
        return .success(ImageUploadResponse(offset: current.offset, match: checksImage ? current.sha == job.sha256 : nil))
    }
}

/// Deterministic image bytes, different at every offset a chunk could be misplaced to.
private func exchangeImage(count: Int) -> [UInt8] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0 ..< count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}
