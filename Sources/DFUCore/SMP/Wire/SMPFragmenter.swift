/// Splits one encoded SMP packet into consecutive writes of at most `maxWriteSize` bytes (ATT MTU − 3
/// on BLE). No extra framing: the header in the first write tells the receiver the total length.
///
/// Splitting is only correct toward a device that reassembles (Zephyr
/// `CONFIG_MCUMGR_TRANSPORT_BT_REASSEMBLY`); without it every packet must fit one write, a choice
/// for the caller, which knows the device. Input is checked to be exactly one frame, so two packets
/// can never share a write (Zephyr drops a packet when a write runs past its end).
public enum SMPFragmenter {
    public static func split(_ frame: [UInt8], maxWriteSize: Int) throws(SMPFrameError) -> [[UInt8]] {
        guard maxWriteSize >= SMPHeader.size else { throw .invalidWriteSize(maxWriteSize) }
        let header = try SMPHeader(decoding: frame)
        let bodyCount = frame.count - SMPHeader.size
        guard bodyCount == Int(header.length) else {
            throw .lengthMismatch(declared: Int(header.length), actual: bodyCount)
        }
        var writes: [[UInt8]] = []
        writes.reserveCapacity((frame.count + maxWriteSize - 1) / maxWriteSize)
        var start = 0
        while start < frame.count {
            let end = min(start + maxWriteSize, frame.count)
            writes.append(Array(frame[start..<end]))
            start = end
        }
        return writes
    }
}
