import Foundation
@testable import DFUCore

/// Shared helpers for the CBOR and SMP tests: hex, a seeded PRNG, and the vector files written by
/// scripts/gen-cbor-vectors.py (read at test time; Python is only needed to regenerate them).

func fromHex(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: " ") })
    var out: [UInt8] = []
    out.reserveCapacity(digits.count / 2)
    var i = 0
    while i + 1 < digits.count {
        let pair = String(decoding: digits[i...i + 1], as: UTF8.self)
        out.append(UInt8(pair, radix: 16) ?? 0)
        i += 2
    }
    return out
}

func toHex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Any JSON value; the vector files are parsed with `JSONDecoder` into this.
indirect enum VectorJSON: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([VectorJSON])
    case object([String: VectorJSON])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Int64.self) { self = .int(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([VectorJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: VectorJSON].self)) }
    }

    subscript(key: String) -> VectorJSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var int: Int64? { if case .int(let n) = self { return n } else { return nil } }
    var uint: UInt64? { int.flatMap { UInt64(exactly: $0) } }
    var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    var array: [VectorJSON]? { if case .array(let a) = self { return a } else { return nil } }
    var object: [String: VectorJSON]? { if case .object(let o) = self { return o } else { return nil } }

    /// The tagged form of a CBOR value written by the generator (see its docstring).
    func cborValue() -> CBORValue? {
        guard case .object(let o) = self, o.count == 1, let (tag, v) = o.first else { return nil }
        switch tag {
        case "uint": return v.string.flatMap { UInt64($0) }.map(CBORValue.unsigned)
        case "nint":
            // "-N" is the value and CBOR stores N - 1; N = 2^64 does not fit UInt64, so spell it out.
            guard let s = v.string, s.hasPrefix("-") else { return nil }
            let magnitude = s.dropFirst()
            if magnitude == "18446744073709551616" { return .negative(UInt64.max) }
            guard let m = UInt64(magnitude), m > 0 else { return nil }
            return .negative(m - 1)
        case "bytes": return v.string.map { .bytes(fromHex($0)) }
        case "text": return v.string.map(CBORValue.text)
        case "bool": return v.bool.map(CBORValue.bool)
        case "null": return .null
        case "array":
            guard let items = v.array else { return nil }
            var out: [CBORValue] = []
            for item in items {
                guard let c = item.cborValue() else { return nil }
                out.append(c)
            }
            return .array(out)
        case "map":
            guard let pairs = v.array else { return nil }
            var entries: [CBORMap.Entry] = []
            for pair in pairs {
                guard let kv = pair.array, kv.count == 2, let k = kv[0].cborValue(), let val = kv[1].cborValue()
                else { return nil }
                entries.append(CBORMap.Entry(key: k, value: val))
            }
            return .map(CBORMap(entries))
        default: return nil
        }
    }
}

enum CBORVectorFile {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Vectors/cbor")

    static func load(_ name: String) throws -> VectorJSON {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return try JSONDecoder().decode(VectorJSON.self, from: data)
    }
}

/// The `CBORError` case name, to compare with the generator's expected error kinds.
func cborErrorKind(_ error: CBORError) -> String {
    switch error {
    case .inputTooLarge: return "inputTooLarge"
    case .truncated: return "truncated"
    case .lengthExceedsInput: return "lengthExceedsInput"
    case .reservedAdditionalInfo: return "reservedAdditionalInfo"
    case .unsupported: return "unsupported"
    case .invalidIndefiniteLength: return "invalidIndefiniteLength"
    case .unexpectedBreak: return "unexpectedBreak"
    case .invalidChunk: return "invalidChunk"
    case .invalidUTF8: return "invalidUTF8"
    case .missingMapValue: return "missingMapValue"
    case .duplicateMapKey: return "duplicateMapKey"
    case .depthLimitExceeded: return "depthLimitExceeded"
    case .itemLimitExceeded: return "itemLimitExceeded"
    case .trailingBytes: return "trailingBytes"
    }
}
