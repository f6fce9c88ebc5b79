/// Hex formatting for descriptions: hash values and field numbers only, never key material or image bytes.
func hexDigits<T: BinaryInteger>(_ value: T, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Lower-case hex of a digest, as `imgtool verify` and `sha256sum` print it.
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    var out = ""
    for byte in bytes {
        let digits = String(byte, radix: 16)
        out += digits.count == 1 ? "0" + digits : digits
    }
    return out
}
