import DFUCore

/// Zephyr's img_mgmt upload handler, reduced (Tests' UploadTestDevice): the honest answers. It
/// takes a chunk at the offset it holds, resumes a session whose sha a first packet repeats,
/// answers any other offset with its own, refuses an overrun; echo and the image list too.
struct UploadDevice {
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
