import DFUCore

/// Notices when an upload starts, completes or is lost, for the server's log. It only watches: it
/// reads the device's upload session after every step and the replies to upload requests, and
/// changes nothing.
///
/// Zephyr ends the session when the last byte is written, before the reply goes out (and the last
/// request's state change happens when its processing starts, not when it is answered). So
/// "complete" is recognised from the reply: an upload reply whose `off` equals the `len` of the
/// session last seen.
struct UploadWatch: Sendable {
    enum Change: Sendable, Hashable {
        case started(length: Int)
        case completed(length: Int)
        /// A reset lost the session before its last byte.
        case lost(offset: Int, length: Int)
    }

    /// The last session seen, kept after the device dropped it until its final reply is read.
    private var watched: UploadSession?

    /// After each step: a session with another `sha` or `len` is a new upload (Zephyr resumes a
    /// session only when `sha` matches); so is an offset going back in a session without `sha`.
    mutating func observe(_ session: UploadSession?) -> Change? {
        guard let session else { return nil }
        defer { watched = session }
        if let watched, watched.sha == session.sha, watched.length == session.length,
           !session.sha.isEmpty || session.offset >= watched.offset {
            return nil
        }
        return .started(length: session.length)
    }

    /// For each reply the device sends: an upload reply at the session's end completes it; an
    /// upload error once the device has no session means the watched one ended without completing.
    mutating func reply(_ bytes: [UInt8], session current: UploadSession?) -> Change? {
        guard let watched, current == nil,
              let packet = try? SMPPacket(decoding: bytes), packet.header.op == .writeResponse,
              packet.header.group == .image, packet.header.command == ImageMgmtCommand.upload.rawValue,
              let result = try? ImageUploadResponse.decodeResponse(packet.body) else { return nil }
        switch result {
        case .success(let response) where response.offset == UInt64(watched.length):
            self.watched = nil
            return .completed(length: watched.length)
        case .success:
            // An earlier chunk's reply, sent after the last chunk's processing began.
            return nil
        case .failure:
            self.watched = nil
            return nil
        }
    }

    /// The device reset: RAM, and with it the session, is gone.
    mutating func reset() -> Change? {
        defer { watched = nil }
        guard let watched, watched.offset < watched.length else { return nil }
        return .lost(offset: watched.offset, length: watched.length)
    }
}
