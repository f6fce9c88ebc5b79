/// SLIP-encodes one frame the way both ends of Nordic's serial DFU do: END and ESC inside the
/// payload become two-byte escapes, and one END closes the frame (`slip_encode` in the SDK's
/// `slip.c`; `Slip.encode` in pc-nrfutil's `dfu_transport_serial.py`).
///
/// No END is sent before the frame, although RFC 1055 suggests one to flush line noise: the SDK
/// decoder (`slip_decode_add_byte`) reports a lone END as a complete zero-length packet, and
/// `nrf_dfu_serial_on_packet_received` then reads its opcode from a stale buffer byte.
public enum SLIPEncoder {
    /// The encoded frame: the escaped payload, then END.
    public static func encode(_ payload: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.underestimatedCount + 1)
        for byte in payload {
            switch byte {
            case SLIPByte.end: out += [SLIPByte.escape, SLIPByte.escapedEnd]
            case SLIPByte.escape: out += [SLIPByte.escape, SLIPByte.escapedEscape]
            default: out.append(byte)
            }
        }
        out.append(SLIPByte.end)
        return out
    }

    /// The longest encoding of `payloadCount` bytes: every byte escaped, plus the closing END
    /// (the "2 * input size + 1" of `slip.h`).
    public static func worstCaseEncodedCount(payloadCount: Int) -> Int { 2 * payloadCount + 1 }
}
