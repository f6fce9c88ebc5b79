extension MCUmgrSerial {
    /// Bounds-checked integer reads from device memory or wire bytes: nil past the end, never a trap.
    enum ByteReading {
        static func le16(_ bytes: [UInt8], at offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        }

        static func le32(_ bytes: [UInt8], at offset: Int) -> UInt32? {
            guard let low = le16(bytes, at: offset), let high = le16(bytes, at: offset + 2) else { return nil }
            return UInt32(low) | UInt32(high) << 16
        }

        static func be16(_ bytes: [UInt8], at offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
        }

        static func slice(_ bytes: [UInt8], at offset: Int, count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset + count <= bytes.count else { return nil }
            return Array(bytes[offset..<offset + count])
        }
    }
}
