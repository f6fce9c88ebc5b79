@testable import DFUCore

/// What the scripted device does with one complete request (numbered from 1 in arrival order).
enum UploadRequestFault: Sendable {
    case none
    /// The request never reaches the handler (Zephyr had no buffer): no state change, no reply.
    case lose
    /// Handled, but its reply never arrives.
    case dropReply
    /// Handled; the reply arrives twice.
    case duplicateReply
    /// Handled; the reply arrives this much later than it would (replies overtake it).
    case delayReply(Duration)
    /// The device takes this much longer over the request (a flash stall): every reply behind it
    /// is late too, as with Zephyr's in-order work queue.
    case stallDevice(Duration)
    /// The device loses its upload session just before handling it (a reboot without a link drop).
    case loseSessionFirst
    /// Answered with this error instead (the session ends, as in Zephyr).
    case answerError(SMPError)
    /// Answered `rc: 10` (MGMT_ERR_EBUSY) without being handled: the session stays as it was.
    case answerBusy
    /// Answered with this body (same header), without touching the session: a lying device.
    case answerBody(CBORMap)
    /// The reply's header (with this body's length) and these body bytes: bad CBOR, not a map.
    case answerBodyBytes([UInt8])
    /// These bytes arrive instead of the reply: garbage, a wrong sequence, a lying length.
    case answerBytes([UInt8])
}

/// A scripted Zephyr `img_mgmt` upload handler (smp-mcuboot.md §3 "Exact server rules"), plus echo:
/// reassembles writes into packets, answers upload requests with `off` = bytes it holds, resumes a
/// session when a first packet carries its sha, discards a wrong offset with a success reply
/// carrying the expected one, and refuses overruns. No timing: `UploadTestPair` adds it.
struct UploadTestDevice {
    struct Session {
        var length: UInt64
        var sha: [UInt8]
        var offset: UInt64
    }

    var session: Session?
    var slot: [UInt8] = []
    var slotSize = 1 << 20
    /// With Zephyr's `CONFIG_IMG_ENABLE_IMAGE_CHECK`: the final reply carries `match`.
    var checksImage = false
    /// The SMP versions this build answers; others get rc 12 (too old) or 13 (too new).
    var versions: ClosedRange<UInt8> = 0...1
    /// Largest packet it reassembles (its `buf_size`).
    var bufferSize = 2475
    var assembler: SMPFrameAssembler
    /// Every upload request decoded, with the version it came in, in arrival order.
    var received: [(request: ImageUploadRequest, version: SMPVersion)] = []
    /// Framing errors seen (our core must never cause one).
    var framingErrors: [SMPFrameError] = []
    /// The last image completed, when one was.
    var completedImage: [UInt8]?

    init(bufferSize: Int = 2475) {
        self.bufferSize = bufferSize
        assembler = SMPFrameAssembler(maximumFrameSize: bufferSize)
    }

    /// One write from the client; a complete request frame when this write completes one.
    mutating func receive(write bytes: [UInt8]) -> SMPFrame? {
        do {
            return try assembler.append(bytes)
        } catch {
            framingErrors.append(error)
            return nil
        }
    }

    /// Handles one request frame and returns the response packet, as Zephyr would.
    mutating func respond(to frame: SMPFrame) -> SMPPacket {
        let header = frame.header
        if header.version.rawValue > versions.upperBound {
            return .response(to: header, error: .mcumgr(.protocolTooNew))
        }
        if header.version.rawValue < versions.lowerBound {
            return .response(to: header, error: .mcumgr(.protocolTooOld))
        }
        guard let packet = try? SMPPacket(frame: frame) else {
            return .response(to: header, error: .mcumgr(.invalidValue))
        }
        if OSEchoRequest.matches(header), let echo = try? OSEchoRequest(body: packet.body) {
            return OSEchoResponse(text: echo.text).response(to: header)
        }
        guard ImageUploadRequest.matches(header) else {
            return .response(to: header, error: .mcumgr(.notSupported))
        }
        let request: ImageUploadRequest
        do {
            request = try ImageUploadRequest(body: packet.body)
        } catch {
            return .response(to: header, error: .image(.invalidOffset))
        }
        received.append((request, header.version))
        switch upload(request) {
        case .success(let reply): return reply.response(to: header)
        case .failure(let error):
            session = nil
            return .response(to: header, error: error)
        }
    }

    private mutating func upload(_ request: ImageUploadRequest) -> Result<ImageUploadResponse, SMPError> {
        if request.offset == 0 {
            guard request.data.count >= 32 else { return .failure(.image(.invalidImageHeader)) }
            guard let length = request.length else { return .failure(.image(.invalidLength)) }
            let sha = request.sha ?? []
            guard sha.count <= 32 else { return .failure(.image(.invalidHash)) }
            if !sha.isEmpty, let session, session.sha == sha, session.length == length {
                return .success(ImageUploadResponse(offset: session.offset))
            }
            guard length <= UInt64(slotSize) else { return .failure(.image(.imageTooLarge)) }
            session = Session(length: length, sha: sha, offset: 0)
            slot = []
        }
        guard var current = session else { return .success(ImageUploadResponse(offset: 0)) }
        guard request.offset == current.offset else { return .success(ImageUploadResponse(offset: current.offset)) }
        guard request.offset + UInt64(request.data.count) <= current.length else {
            return .failure(.image(.imageDataOverrun))
        }
        slot.append(contentsOf: request.data)
        current.offset += UInt64(request.data.count)
        guard current.offset == current.length else {
            session = current
            return .success(ImageUploadResponse(offset: current.offset))
        }
        session = nil
        completedImage = slot
        var match: Bool?
        if checksImage { match = (try? SHA256.hash(slot)) == current.sha }
        return .success(ImageUploadResponse(offset: current.offset, match: match))
    }
}
