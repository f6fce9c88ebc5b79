/// Bounds-checked little-endian reads over an untrusted file. Every read names what it is reading, so a
/// short file or a lying length becomes an `ImageError` that says which field failed, never a trap.
/// Offsets are `Int`; sums that come from file fields are checked for overflow before they are used.
struct ByteReader: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    /// The range `offset ..< offset + length` if it lies inside the file; `truncated` otherwise.
    func range(at offset: Int, length: Int, what: String) throws(ImageError) -> Range<Int> {
        guard offset >= 0, length >= 0 else {
            throw .invalidField(field: what, value: min(offset, length), reason: "is negative")
        }
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= bytes.count else {
            throw .truncated(what: what, offset: offset, needed: length,
                             available: max(0, bytes.count - offset))
        }
        return offset ..< end
    }

    func slice(at offset: Int, length: Int, what: String) throws(ImageError) -> ArraySlice<UInt8> {
        let r = try range(at: offset, length: length, what: what)
        return bytes[r]
    }

    func u8(at offset: Int, what: String) throws(ImageError) -> UInt8 {
        let r = try range(at: offset, length: 1, what: what)
        return bytes[r.lowerBound]
    }

    func u16(at offset: Int, what: String) throws(ImageError) -> UInt16 {
        let r = try range(at: offset, length: 2, what: what)
        return UInt16(bytes[r.lowerBound]) | UInt16(bytes[r.lowerBound + 1]) << 8
    }

    func u32(at offset: Int, what: String) throws(ImageError) -> UInt32 {
        let r = try range(at: offset, length: 4, what: what)
        var value: UInt32 = 0
        for i in r.reversed() { value = value << 8 | UInt32(bytes[i]) }
        return value
    }
}

/// `a + b` for offsets built from file fields; an overflow is reported as the field that caused it.
func checkedSum(_ a: Int, _ b: Int, field: String) throws(ImageError) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard !overflow else { throw .invalidField(field: field, value: b, reason: "overflows the file offset") }
    return sum
}
