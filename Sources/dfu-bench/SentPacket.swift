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
