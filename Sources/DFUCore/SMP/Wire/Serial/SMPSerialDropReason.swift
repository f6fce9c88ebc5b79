/// Why the console decoder threw away a line or a partly received packet. Each one means the line
/// was garbled (noise, a lost byte, log text written into the middle of a frame) or the peer broke
/// the framing; the decoder then waits for the next start marker, as Zephyr's receiver does
/// (`serial_util.c`, `mcumgr_serial_process_frag`: every failure frees the packet in progress).
/// "Total" lengths are the framing's own: packet plus its 2-byte CRC.
public enum SMPSerialDropReason: Sendable, Hashable, CustomStringConvertible {
    /// A frame line grew past the limit before its newline; the rest of it is discarded up to the
    /// next newline or marker (Zephyr's UART driver ignores such a line the same way,
    /// `uart_mcumgr.c`, `uart_mcumgr_rx_byte`).
    case lineTooLong(limit: Int)
    /// A marker arrived inside a frame line: its newline was lost, so the line is incomplete.
    case unterminatedLine
    /// The characters after the marker are not whole base64 groups.
    case invalidBase64(SMPSerialMarker)
    /// A start line too short to carry the 2-byte total length (`mcumgr_serial_extract_len`).
    case missingLength
    /// A total length below the 2 bytes of the CRC it must include.
    case totalLengthTooShort(Int)
    /// The packet announced is larger than the decoder holds.
    case packetTooLarge(size: Int, maximum: Int)
    /// A continuation line with no packet in progress (Zephyr drops it too).
    case continuationWithoutStart
    /// A start line arrived before the packet in progress was complete (Zephyr starts over too).
    case interruptedByStart(received: Int, total: Int)
    /// The lines carried more bytes than the total length announced.
    case longerThanAnnounced(total: Int, received: Int)
    /// The CRC at the end does not match the packet's.
    case crcMismatch(received: UInt16, computed: UInt16)

    public var description: String {
        switch self {
        case .lineTooLong(let limit):
            return "serial frame line longer than \(limit) bytes"
        case .unterminatedLine:
            return "serial frame line cut off by the next marker (its newline was lost)"
        case .invalidBase64(let marker):
            return "serial \(marker) line is not valid base64"
        case .missingLength:
            return "serial start line too short to carry the packet length"
        case .totalLengthTooShort(let total):
            return "serial packet length \(total) is shorter than its CRC"
        case .packetTooLarge(let size, let maximum):
            return "serial packet of \(size) bytes is larger than the maximum of \(maximum)"
        case .continuationWithoutStart:
            return "serial continuation line without a start line"
        case .interruptedByStart(let received, let total):
            return "serial packet cut off by a new start line after \(received) of \(total) bytes"
        case .longerThanAnnounced(let total, let received):
            return "serial packet announced \(total) bytes but \(received) arrived"
        case .crcMismatch(let received, let computed):
            return "serial packet CRC 0x\(hex16(received)) does not match 0x\(hex16(computed))"
        }
    }
}

private func hex16(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
