/// ECDSA signatures given as raw r and s (Nordic init packets store them that way, each reversed) turned
/// into the DER `ECDSA-Sig-Value` libcrypto verifies.
public enum ECDSASignature {
    /// DER SEQUENCE { INTEGER r, INTEGER s } from big-endian unsigned r and s of at most 32 bytes each.
    public static func der(r: [UInt8], s: [UInt8]) -> [UInt8] {
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }

    /// A DER INTEGER: leading zeros dropped, one 0x00 put back if the top bit is set (it is unsigned).
    private static func integer(_ bigEndian: [UInt8]) -> [UInt8] {
        var digits = Array(bigEndian.drop { $0 == 0 })
        if digits.isEmpty { digits = [0] }
        if let first = digits.first, first & 0x80 != 0 { digits.insert(0, at: 0) }
        return [0x02, UInt8(digits.count)] + digits
    }
}
