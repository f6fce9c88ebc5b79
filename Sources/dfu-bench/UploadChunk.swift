/// An image upload request, reduced to what the ceiling needs.
struct UploadChunk: Sendable, Hashable {
    /// `off`: where the chunk's data goes in the image.
    let offset: UInt64
    /// Image bytes in `data`.
    let dataCount: Int
    /// Header + CBOR, data included.
    let packetSize: Int
    let writeSizes: [Int]

    /// `2449 of 2475 B in 5×495`, or `… in 4×495+1×120` when the last write is short.
    var layoutText: String {
        var counts: [(size: Int, count: Int)] = []
        for size in writeSizes {
            if let last = counts.last, last.size == size {
                counts[counts.count - 1].count += 1
            } else {
                counts.append((size, 1))
            }
        }
        let writes = counts.map { "\($0.count)×\($0.size)" }.joined(separator: "+")
        return "\(dataCount) of \(packetSize) B in \(writes)"
    }
}
