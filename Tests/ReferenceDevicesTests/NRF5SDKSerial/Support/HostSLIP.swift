/// The host's side of SLIP, written again for the tests from RFC 1055 (END C0, ESC DB, ESC_END DC,
/// ESC_ESC DD), so that the device's decoder and encoder are checked against something else.
enum HostSLIP {
    static let end: UInt8 = 0xC0
    static let escape: UInt8 = 0xDB

    /// A frame: escapes, then one END (none before, as pc-nrfutil sends them).
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        bytes.flatMap { byte -> [UInt8] in
            switch byte {
            case end: return [escape, 0xDC]
            case escape: return [escape, 0xDD]
            default: return [byte]
            }
        } + [end]
    }

    /// The frames in a byte stream the device sent; a trailing partial frame is left out.
    static func frames(in stream: [UInt8]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var frame: [UInt8] = []
        var escaped = false
        for byte in stream {
            if escaped {
                frame.append(byte == 0xDC ? end : byte == 0xDD ? escape : byte)
                escaped = false
            } else if byte == escape {
                escaped = true
            } else if byte == end {
                frames.append(frame)
                frame = []
            } else {
                frame.append(byte)
            }
        }
        return frames
    }
}

/// Requests as pc-nrfutil 6.1.7's serial transport writes them (little-endian fields).
enum SerialRequestBytes {
    static func ping(_ id: UInt8) -> [UInt8] { [0x09, id] }
    static func setPRN(_ count: UInt16) -> [UInt8] { [0x02] + Array(le32(UInt32(count)).prefix(2)) }
    static let mtu: [UInt8] = [0x07]
    static func select(_ type: UInt8) -> [UInt8] { [0x06, type] }
    static func create(_ type: UInt8, size: Int) -> [UInt8] { [0x01, type] + le32(UInt32(size)) }
    static let checksum: [UInt8] = [0x03]
    static let execute: [UInt8] = [0x04]
    static func write(_ data: some Sequence<UInt8>) -> [UInt8] { [0x08] + Array(data) }
}

/// Little-endian words of an answer from `offset` on.
func words(_ answer: [UInt8]?, from offset: Int = 3) -> [UInt32] {
    guard let answer, answer.count >= offset + 4 else { return [] }
    return stride(from: offset, through: answer.count - 4, by: 4).map { index in
        (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(answer[index + $1]) << UInt32($1 * 8) }
    }
}
