/// The public key as C source, the way `nrfutil keys display --key pk --format code` prints it for a
/// bootloader build: a `uint8_t` array of 64 hex bytes, X then Y, each 32-byte half little-endian.
enum NordicKeyCode {
    /// Whether `text` looks like such an array (and not like PEM), so `PublicKey.load` tries it.
    static func looksLikeCode(_ text: [UInt8]) -> Bool {
        !containsPEMMarker(text) && text.contains(UInt8(ascii: "{"))
    }

    /// X and Y, big-endian, 32 bytes each, from the array's 64 bytes (`bytes(_:)`); nil for
    /// another count.
    static func coordinates(fromArray bytes: [UInt8]) -> (x: [UInt8], y: [UInt8])? {
        guard bytes.count == 64 else { return nil }
        return (Array(bytes[0 ..< 32].reversed()), Array(bytes[32 ..< 64].reversed()))
    }

    /// The `0x..` bytes between the first `{` and the next `}`, in order; nil when anything else
    /// stands there.
    static func bytes(_ text: [UInt8]) -> [UInt8]? {
        guard let open = text.firstIndex(of: UInt8(ascii: "{")),
              let close = text[open...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
        var bytes: [UInt8] = []
        for token in text[(open + 1) ..< close].split(separator: UInt8(ascii: ",")) {
            let trimmed = token.drop { isSpace($0) }.reversed().drop { isSpace($0) }.reversed()
            let word = String(decoding: trimmed, as: UTF8.self)
            if word.isEmpty { continue }  // a trailing comma
            guard word.count == 4, word.lowercased().hasPrefix("0x"), let value = UInt8(word.dropFirst(2), radix: 16) else {
                return nil
            }
            bytes.append(value)
        }
        return bytes
    }

    private static func containsPEMMarker(_ text: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN".utf8)
        guard text.count >= marker.count else { return false }
        return (0 ... text.count - marker.count).contains { text[$0 ..< $0 + marker.count].elementsEqual(marker) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09 ... 0x0D).contains(byte) }
}
