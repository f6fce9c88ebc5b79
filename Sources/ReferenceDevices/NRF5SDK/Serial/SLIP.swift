/// The SLIP bytes (slip.c: RFC 1055's values, written there in octal).
enum SLIP {
    /// `SLIP_BYTE_END` 0300.
    static let end: UInt8 = 0xC0
    /// `SLIP_BYTE_ESC` 0333.
    static let escape: UInt8 = 0xDB
    /// `SLIP_BYTE_ESC_END` 0334.
    static let escapedEnd: UInt8 = 0xDC
    /// `SLIP_BYTE_ESC_ESC` 0335.
    static let escapedEscape: UInt8 = 0xDD

    /// `slip_encode`: END and ESC escaped, one END after the frame and none before it. At most
    /// `2 × count + 1` bytes.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2 + 1)
        for byte in bytes {
            switch byte {
            case end: out += [escape, escapedEnd]
            case escape: out += [escape, escapedEscape]
            default: out.append(byte)
            }
        }
        out.append(end)
        return out
    }
}
