/// CRC-32 of any prefix of a fixed byte string, for comparing with the device's (offset, CRC).
/// The CRC at every `stride` bytes is computed once, so each question reads at most `stride − 1`
/// bytes: offsets are checked after every PRN and an image may be a megabyte.
struct NordicPrefixCRC: Sendable {
    static let stride = 1024

    let bytes: [UInt8]
    private let checkpoints: [UInt32]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var crc = CRC32()
        var checkpoints: [UInt32] = [0]
        var start = 0
        while start + Self.stride <= bytes.count {
            crc.update(bytes[start ..< start + Self.stride])
            checkpoints.append(crc.value)
            start += Self.stride
        }
        self.checkpoints = checkpoints
    }

    /// crc32(bytes[0 ..< offset]); `offset` is clamped to the bytes held (callers check it first).
    func crc(upTo offset: Int) -> UInt32 {
        let end = min(max(offset, 0), bytes.count)
        let index = min(end / Self.stride, checkpoints.count - 1)
        var crc = CRC32(continuing: checkpoints[index])
        crc.update(bytes[index * Self.stride ..< end])
        return crc.value
    }
}
