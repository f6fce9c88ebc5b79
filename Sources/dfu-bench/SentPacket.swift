import DFUCore

/// One SMP packet as the client put it on the link: its bytes and the sizes of the writes it was
/// cut into. Kept raw during the transfer and decoded afterwards (`uploadChunk`), so recording it
/// adds no CBOR work to the CPU time the benchmark measures.
struct SentPacket: Sendable {
    let frame: SMPFrame
    let writeSizes: [Int]

    /// Header and CBOR body: what the device's buffer holds.
    var packetSize: Int { SMPHeader.size + frame.body.count }

    /// The image chunk this packet carries, or nil when it is not an image upload request.
    var uploadChunk: UploadChunk? {
        let header = frame.header
        guard header.group == .image, header.command == ImageMgmtCommand.upload.rawValue, header.op == .write,
              let packet = try? SMPPacket(frame: frame),
              let request = try? ImageUploadRequest(body: packet.body) else { return nil }
        return UploadChunk(offset: request.offset, dataCount: request.data.count, packetSize: packetSize,
                           writeSizes: writeSizes)
    }
}

/// An image upload request, reduced to what the ceiling needs.
struct UploadChunk: Sendable, Hashable {
    /// `off`: where the chunk's data goes in the image.
    let offset: UInt64
    /// Image bytes in `data`.
    let dataCount: Int
    /// Header + CBOR, data included.
    let packetSize: Int
    let writeSizes: [Int]

    /// `2460 B in 5 × 495`, or `… in 4 × 495 + 1 × 120` when the last write is short.
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
