/// The entry names exactly as the archive's central directory stores them. libzip hands out names as C
/// strings with any NUL byte turned into a space, so the bytes it hides are read here, from the same
/// directory libzip used; dfu refuses the archive if the two disagree.
enum ZipCentralDirectory {
    private static let endRecordSignature: UInt32 = 0x0605_4B50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let zip64EndRecordSignature: UInt32 = 0x0606_4B50
    private static let fileHeaderSignature: UInt32 = 0x0201_4B50
    private static let endRecordSize = 22

    /// The raw name of every central directory entry, in directory order (libzip's index order).
    static func rawNames(in bytes: [UInt8], expectedCount: Int) throws(ArchiveError) -> [[UInt8]] {
        let names: [[UInt8]]
        do {
            names = try walk(ByteReader(bytes))
        } catch {
            throw .damaged(reason: "its central directory cannot be read: \(error.description)")
        }
        guard names.count == expectedCount else {
            throw .damaged(reason: "the central directory lists \(names.count) entries, libzip found \(expectedCount)")
        }
        return names
    }

    private static func walk(_ reader: ByteReader) throws(ImageError) -> [[UInt8]] {
        let end = try endRecordOffset(reader)
        var count = Int(try reader.u16(at: end + 10, what: "entry count"))
        var offset = Int(try reader.u32(at: end + 16, what: "central directory offset"))
        if count == 0xFFFF || offset == 0xFFFF_FFFF {
            (count, offset) = try zip64Directory(reader, endRecord: end)
        }
        var names: [[UInt8]] = []
        for _ in 0 ..< count {
            guard try reader.u32(at: offset, what: "central directory entry") == fileHeaderSignature else {
                throw .invalidField(field: "central directory entry", value: offset, reason: "has a bad signature")
            }
            let nameLength = Int(try reader.u16(at: offset + 28, what: "name length"))
            let extraLength = Int(try reader.u16(at: offset + 30, what: "extra field length"))
            let commentLength = Int(try reader.u16(at: offset + 32, what: "comment length"))
            names.append(Array(try reader.slice(at: offset + 46, length: nameLength, what: "entry name")))
            offset += 46 + nameLength + extraLength + commentLength
        }
        return names
    }

    /// The last end-of-central-directory record whose comment ends exactly at the end of the file.
    private static func endRecordOffset(_ reader: ByteReader) throws(ImageError) -> Int {
        let last = reader.count - endRecordSize
        let first = max(0, last - 0xFFFF)
        var candidate = last
        while candidate >= first {
            if try reader.u32(at: candidate, what: "end record") == endRecordSignature,
               candidate + endRecordSize + Int(try reader.u16(at: candidate + 20, what: "comment length")) == reader.count {
                return candidate
            }
            candidate -= 1
        }
        throw .truncated(what: "end of central directory", offset: 0, needed: endRecordSize, available: reader.count)
    }

    private static func zip64Directory(_ reader: ByteReader, endRecord: Int) throws(ImageError) -> (Int, Int) {
        let locator = endRecord - 20
        guard try reader.u32(at: locator, what: "zip64 locator") == zip64LocatorSignature else {
            throw .invalidField(field: "zip64 locator", value: locator, reason: "is missing")
        }
        let record = try u64(reader, at: locator + 8)
        guard try reader.u32(at: record, what: "zip64 end record") == zip64EndRecordSignature else {
            throw .invalidField(field: "zip64 end record", value: record, reason: "is missing")
        }
        return (try u64(reader, at: record + 32), try u64(reader, at: record + 48))
    }

    /// A 64-bit field as an offset or count; anything beyond the file cannot be either.
    private static func u64(_ reader: ByteReader, at offset: Int) throws(ImageError) -> Int {
        let low = UInt64(try reader.u32(at: offset, what: "zip64 field"))
        let high = UInt64(try reader.u32(at: offset + 4, what: "zip64 field"))
        let value = high << 32 | low
        guard value <= UInt64(reader.count) else {
            throw .invalidField(field: "zip64 field", value: reader.count, reason: "points past the end")
        }
        return Int(value)
    }
}
