// The one hex formatter: every target above Transport imports it, so digests, codes, addresses and
// escapes are printed the same way. For descriptions: hash values, codes and field numbers, never
// key material or image bytes.

/// `value` in hex, zero-padded to `width` digits (a wider value keeps all its digits).
package func hexDigits<T: BinaryInteger>(_ value: T, width: Int, uppercase: Bool = true) -> String {
    let digits = String(value, radix: 16, uppercase: uppercase)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Lower-case hex of a digest, two digits a byte, as `imgtool verify` and `sha256sum` print it.
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    var out = ""
    for byte in bytes {
        out += hexDigits(byte, width: 2, uppercase: false)
    }
    return out
}
