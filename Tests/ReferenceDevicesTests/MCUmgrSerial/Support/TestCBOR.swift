/// A small CBOR codec on the client's side of the tests, written apart from the model's: requests
/// use definite lengths (as mcumgr clients send them); responses may use either.
indirect enum TestCBOR: Equatable {
    case uint(UInt64)
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([TestCBOR])
    case map([(String, TestCBOR)])
    case bool(Bool)

    static func == (lhs: TestCBOR, rhs: TestCBOR) -> Bool {
        switch (lhs, rhs) {
        case (.uint(let a), .uint(let b)), (.negative(let a), .negative(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.text(let a), .text(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.map(let a), .map(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    subscript(key: String) -> TestCBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    var uint: UInt64? { if case .uint(let v) = self { return v } else { return nil } }
    var bytes: [UInt8]? { if case .bytes(let v) = self { return v } else { return nil } }
    var text: String? { if case .text(let v) = self { return v } else { return nil } }
    var bool: Bool? { if case .bool(let v) = self { return v } else { return nil } }
    var array: [TestCBOR]? { if case .array(let v) = self { return v } else { return nil } }
    var keys: [String] { if case .map(let pairs) = self { return pairs.map(\.0) } else { return [] } }

    var encoded: [UInt8] {
        switch self {
        case .uint(let v): return Self.head(0, v)
        case .negative(let v): return Self.head(1, v)
        case .bytes(let v): return Self.head(2, UInt64(v.count)) + v
        case .text(let v): return Self.head(3, UInt64(v.utf8.count)) + Array(v.utf8)
        case .array(let items): return Self.head(4, UInt64(items.count)) + items.flatMap(\.encoded)
        case .map(let pairs): return Self.head(5, UInt64(pairs.count)) + pairs.flatMap { TestCBOR.text($0.0).encoded + $0.1.encoded }
        case .bool(let v): return [v ? 0xF5 : 0xF4]
        }
    }

    private static func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
        let m = major << 5
        if value < 24 { return [m | UInt8(value)] }
        if value <= 0xFF { return [m | 24, UInt8(value)] }
        if value <= 0xFFFF { return [m | 25, UInt8(value >> 8), UInt8(value & 0xFF)] }
        if value <= 0xFFFF_FFFF { return [m | 26] + (0..<4).reversed().map { UInt8((value >> (8 * UInt64($0))) & 0xFF) } }
        return [m | 27] + (0..<8).reversed().map { UInt8((value >> (8 * UInt64($0))) & 0xFF) }
    }

    /// Decodes one item; nil when malformed.
    static func decode(_ bytes: [UInt8]) -> TestCBOR? {
        var index = 0
        return item(bytes, &index)
    }

    private static func item(_ b: [UInt8], _ i: inout Int) -> TestCBOR? {
        guard i < b.count else { return nil }
        let initial = b[i]
        i += 1
        let major = initial >> 5, info = initial & 31
        if info == 31 {
            var items: [TestCBOR] = []
            while i < b.count, b[i] != 0xFF {
                guard let next = item(b, &i) else { return nil }
                items.append(next)
            }
            guard i < b.count else { return nil }
            i += 1
            if major == 4 { return .array(items) }
            guard major == 5, items.count % 2 == 0 else { return nil }
            return pairs(items)
        }
        var value = UInt64(info)
        if info >= 24 {
            let n = info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : 0
            guard n > 0, i + n <= b.count else { return nil }
            value = b[i..<i + n].reduce(0) { $0 << 8 | UInt64($1) }
            i += n
        }
        switch major {
        case 0: return .uint(value)
        case 1: return .negative(value)
        case 2, 3:
            guard Int(value) <= b.count - i else { return nil }
            let data = Array(b[i..<i + Int(value)])
            i += Int(value)
            return major == 2 ? .bytes(data) : .text(String(decoding: data, as: UTF8.self))
        case 4, 5:
            var items: [TestCBOR] = []
            for _ in 0..<(major == 4 ? value : value * 2) {
                guard let next = item(b, &i) else { return nil }
                items.append(next)
            }
            return major == 4 ? .array(items) : pairs(items)
        case 7 where info == 20 || info == 21: return .bool(info == 21)
        default: return nil
        }
    }

    private static func pairs(_ items: [TestCBOR]) -> TestCBOR? {
        var result: [(String, TestCBOR)] = []
        for index in stride(from: 0, to: items.count, by: 2) {
            guard case .text(let key) = items[index] else { return nil }
            result.append((key, items[index + 1]))
        }
        return .map(result)
    }
}
