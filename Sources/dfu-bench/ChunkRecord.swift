/// The upload chunks of one transfer, split the way the measurement needs them.
struct ChunkRecord {
    /// Chunks after the first (`off == 0`) packet, each offset once, in the order first sent: the
    /// data streamed in the measured interval.
    let streamed: [UploadChunk]
    /// Data bytes of chunks sent again at an offset already sent.
    let resentBytes: Int

    init(_ chunks: [UploadChunk]) {
        var seen: Set<UInt64> = []
        var streamed: [UploadChunk] = []
        var resent = 0
        for chunk in chunks {
            if seen.insert(chunk.offset).inserted {
                if chunk.offset > 0 { streamed.append(chunk) }
            } else {
                resent += chunk.dataCount
            }
        }
        self.streamed = streamed
        resentBytes = resent
    }

    /// The layout most chunks had (the last, shorter chunk aside), e.g. `2449 of 2475 B in 5×495`.
    var commonLayout: String {
        var counts: [String: Int] = [:]
        for chunk in streamed { counts[chunk.layoutText, default: 0] += 1 }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? "-"
    }
}
