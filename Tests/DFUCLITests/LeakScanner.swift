import Foundation

/// Finds secret bytes in what dfu wrote: any 16-byte run of a secret, written raw, as hex (either
/// case, at either nibble alignment) or as base64 (at any alignment). Everything is reduced to raw
/// bytes first (hex and base64 runs decoded), then every 16-byte window is looked up by its first
/// eight bytes, so a scan is linear in the output.
struct LeakScanner {
    static let window = 16

    struct Secret {
        var name: String
        var bytes: [UInt8]
        /// Ranges of `bytes` that may be shown (digests the file carries, which dfu prints as such).
        var shown: [Range<Int>] = []
    }

    let secrets: [Secret]
    /// First eight bytes of a window → (secret, offset) of every window that starts so.
    private var windows: [UInt64: [(secret: Int, offset: Int)]] = [:]

    init(_ secrets: [Secret]) {
        self.secrets = secrets
        for (index, secret) in secrets.enumerated() where secret.bytes.count >= Self.window {
            for offset in 0 ... secret.bytes.count - Self.window {
                let range = offset ..< offset + Self.window
                guard !secret.shown.contains(where: { $0.overlaps(range) }) else { continue }
                // A run of one repeated byte (header padding, erased flash) tells nothing of the file.
                guard Set(secret.bytes[range]).count > 1 else { continue }
                windows[Self.prefix(secret.bytes, at: offset), default: []].append((index, offset))
            }
        }
    }

    /// One line per secret found in `data` (empty: nothing leaked), naming the secret, where in it
    /// the run starts and how it was written.
    func leaks(in data: [UInt8]) -> [String] {
        var found: [String] = []
        func note(_ hits: [(secret: Int, offset: Int)], _ how: String) {
            for hit in hits {
                let line = "\(secrets[hit.secret].name) bytes \(hit.offset)..<\(hit.offset + Self.window) \(how)"
                if !found.contains(line) { found.append(line) }
            }
        }
        note(raw(data), "raw")
        for run in Self.runs(in: data, of: Self.isHexDigit, atLeast: 2 * Self.window) {
            for phase in 0 ..< 2 { note(raw(Self.hexDecoded(Array(run.dropFirst(phase)))), "as hex") }
        }
        for run in Self.runs(in: data, of: Self.isBase64Digit, atLeast: 22) {
            for phase in 0 ..< 4 { note(raw(Self.base64Decoded(Array(run.dropFirst(phase)))), "as base64") }
        }
        return found
    }

    /// The first 16-byte window of each secret found in `bytes` as they are.
    private func raw(_ bytes: [UInt8]) -> [(secret: Int, offset: Int)] {
        guard bytes.count >= Self.window else { return [] }
        var hits: [(secret: Int, offset: Int)] = []
        for start in 0 ... bytes.count - Self.window {
            guard let candidates = windows[Self.prefix(bytes, at: start)] else { continue }
            for candidate in candidates where !hits.contains(where: { $0.secret == candidate.secret })
                && secrets[candidate.secret].bytes[candidate.offset ..< candidate.offset + Self.window]
                    == bytes[start ..< start + Self.window] {
                hits.append(candidate)
            }
        }
        return hits
    }

    private static func prefix(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes[offset ..< offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func runs(in data: [UInt8], of member: (UInt8) -> Bool, atLeast length: Int) -> [ArraySlice<UInt8>] {
        var runs: [ArraySlice<UInt8>] = []
        var start: Int?
        for index in 0 ... data.count {
            if index < data.count && member(data[index]) {
                if start == nil { start = index }
            } else if let first = start {
                if index - first >= length { runs.append(data[first ..< index]) }
                start = nil
            }
        }
        return runs
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func hexDecoded(_ digits: [UInt8]) -> [UInt8] {
        stride(from: 0, to: digits.count - 1, by: 2).compactMap { index in
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            return high << 4 | low
        }
    }

    private static func isBase64Digit(_ byte: UInt8) -> Bool { base64Value(byte) != nil }

    private static func base64Value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return 63
        default: return nil
        }
    }

    /// Whole groups of four digits only: the phase loop tries every alignment.
    private static func base64Decoded(_ digits: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = 0
        while index + 4 <= digits.count {
            let values = digits[index ..< index + 4].compactMap(base64Value).map(UInt32.init)
            guard values.count == 4 else { break }
            let group = values[0] << 18 | values[1] << 12 | values[2] << 6 | values[3]
            bytes += [UInt8(truncatingIfNeeded: group >> 16), UInt8(truncatingIfNeeded: group >> 8), UInt8(truncatingIfNeeded: group)]
            index += 4
        }
        return bytes
    }
}
