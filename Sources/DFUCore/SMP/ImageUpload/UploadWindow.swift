/// The chunk requests in flight, as a value type (Nordic's `McuMgrUploadPipeline` without the
/// transport downcast).
///
/// Every chunk remembers the epoch it was sent in. A rewind, a timeout or a restart starts a new
/// epoch: chunks sent before it are stale. Their replies still count (they free a device buffer
/// and may report progress) but can only move the upload forward: the device answers requests in
/// order, so replies to requests sent before the rewind describe the past, and letting them rewind
/// again would resend the same bytes once per stale reply.
///
/// Stale chunks stay in the window until answered or timed out, because until then they occupy a
/// buffer on the device; that is what the capacity (`buf_count − 1`) protects.
struct UploadWindow: Sendable {
    struct Chunk: Sendable, Hashable {
        let offset: UInt64
        let end: UInt64
        let epoch: UInt64
        /// An `off == 0` packet (start, restart or resume probe).
        let isFirstPacket: Bool
    }

    let capacity: Int
    private(set) var epoch: UInt64 = 0
    private var chunks: [SMPRequestID: Chunk] = [:]

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { chunks.count }
    var isEmpty: Bool { chunks.isEmpty }
    var hasRoom: Bool { chunks.count < capacity }

    mutating func add(_ id: SMPRequestID, offset: UInt64, count: Int, isFirstPacket: Bool) {
        chunks[id] = Chunk(offset: offset, end: offset + UInt64(count), epoch: epoch, isFirstPacket: isFirstPacket)
    }

    mutating func remove(_ id: SMPRequestID) -> Chunk? { chunks.removeValue(forKey: id) }

    func isCurrent(_ chunk: Chunk) -> Bool { chunk.epoch == epoch }

    /// Makes every chunk in flight stale.
    mutating func startEpoch() { epoch += 1 }

    /// Forgets everything in flight (the link is gone, so no reply will come).
    mutating func removeAll() {
        chunks.removeAll()
        startEpoch()
    }
}
