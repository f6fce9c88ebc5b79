import DFUCore

/// The image data an SMP packet carries: the `data` of an image upload request, nil for any other
/// packet. What the campaign counts as sent, wherever it reads the host's packets.
enum UploadData {
    static func bytes(in packet: SMPPacket) -> Int? {
        let header = packet.header
        guard header.group == .image, header.command == ImageMgmtCommand.upload.rawValue, header.op == .write,
              let request = try? ImageUploadRequest(body: packet.body) else { return nil }
        return request.data.count
    }
}
