/// Decodes the CBOR subset of `CBORValue` from untrusted bytes.
///
/// Accepts definite and indefinite lengths for strings, arrays and maps (Zephyr's zcbor writes
/// indefinite maps and arrays by default) and non-shortest integer heads (RFC 8949 calls them
/// well-formed; rejecting them would buy no safety). Rejects everything else with a `CBORError`
/// and never traps: every length is checked against the bytes that remain before anything is
/// allocated, nesting and item counts are capped, so a 9-byte "length 2⁶⁴" or a 10 000-deep
/// array fails in microseconds.
public struct CBORDecoder: Sendable {
    public struct Limits: Sendable, Hashable {
        /// Nested arrays/maps allowed (the top-level container is level 1). SMP bodies need 3–4.
        public var maxDepth: Int
        /// Data items allowed in one input (keys, values, elements and string chunks each count).
        public var maxItems: Int
        /// Bytes allowed in one input. An SMP body cannot exceed 65 535 (its length is a u16).
        public var maxSize: Int

        public init(maxDepth: Int = 16, maxItems: Int = 4096, maxSize: Int = 65_535) {
            self.maxDepth = maxDepth
            self.maxItems = maxItems
            self.maxSize = maxSize
        }

        public static let `default` = Limits()
    }

    public var limits: Limits

    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Decodes exactly one item that must fill `bytes`; trailing bytes are an error unless allowed.
    public func decode(_ bytes: [UInt8], allowTrailingBytes: Bool = false) throws(CBORError) -> CBORValue {
        let (value, consumed) = try decodePrefix(bytes)
        if !allowTrailingBytes && consumed != bytes.count {
            throw .trailingBytes(offset: consumed, count: bytes.count - consumed)
        }
        return value
    }

    public func decode(_ bytes: ArraySlice<UInt8>, allowTrailingBytes: Bool = false) throws(CBORError) -> CBORValue {
        try decode(Array(bytes), allowTrailingBytes: allowTrailingBytes)
    }

    /// Decodes the first item of `bytes` and says how many bytes it took.
    public func decodePrefix(_ bytes: [UInt8]) throws(CBORError) -> (value: CBORValue, consumed: Int) {
        guard bytes.count <= limits.maxSize else {
            throw .inputTooLarge(size: bytes.count, limit: limits.maxSize)
        }
        var parser = Parser(input: bytes, limits: limits)
        let value = try parser.value(depth: 1)
        return (value, parser.position)
    }
}

/// The cursor over one input. Recursion depth is bounded by `Limits.maxDepth`.
private struct Parser {
    let input: [UInt8]
    let limits: CBORDecoder.Limits
    var position = 0
    var items = 0

    init(input: [UInt8], limits: CBORDecoder.Limits) {
        self.input = input
        self.limits = limits
    }

    var remaining: Int { input.count - position }

    mutating func value(depth: Int) throws(CBORError) -> CBORValue {
        let start = position
        try countItem(at: start)
        guard position < input.count else { throw .truncated(offset: start) }
        let initial = input[position]
        let major = initial >> 5
        let info = initial & 0x1F

        switch major {
        case 0, 1:
            guard let argument = try readArgument() else {
                throw .invalidIndefiniteLength(offset: start, majorType: major)
            }
            return major == 0 ? .unsigned(argument) : .negative(argument)
        case 2:
            return .bytes(try string(major: 2, start: start))
        case 3:
            return .text(try text(start: start))
        case 4:
            return .array(try array(start: start, depth: depth))
        case 5:
            return .map(try map(start: start, depth: depth))
        case 6:
            throw .unsupported(.tag, offset: start)
        default:
            return try simple(info: info, start: start)
        }
    }

    private mutating func countItem(at offset: Int) throws(CBORError) {
        items += 1
        if items > limits.maxItems { throw .itemLimitExceeded(offset: offset, limit: limits.maxItems) }
    }

    /// Reads the initial byte and its argument; nil means indefinite length (additional info 31).
    private mutating func readArgument() throws(CBORError) -> UInt64? {
        let start = position
        guard position < input.count else { throw .truncated(offset: start) }
        let initial = input[position]
        position += 1
        let info = initial & 0x1F
        let extra: Int
        switch info {
        case 0..<24: return UInt64(info)
        case 24: extra = 1
        case 25: extra = 2
        case 26: extra = 4
        case 27: extra = 8
        case 31: return nil
        default: throw .reservedAdditionalInfo(offset: start, initialByte: initial)
        }
        guard remaining >= extra else { throw .truncated(offset: start) }
        var argument: UInt64 = 0
        for _ in 0..<extra {
            argument = argument << 8 | UInt64(input[position])
            position += 1
        }
        return argument
    }

    /// A definite slice of `length` bytes, checked against what remains before copying.
    private mutating func take(_ length: UInt64, itemStart: Int) throws(CBORError) -> ArraySlice<UInt8> {
        guard length <= UInt64(remaining) else {
            throw .lengthExceedsInput(offset: itemStart, length: length, remaining: remaining)
        }
        let end = position + Int(length)
        defer { position = end }
        return input[position..<end]
    }

    /// Byte string (major 2) contents, joining indefinite-length chunks.
    private mutating func string(major: UInt8, start: Int) throws(CBORError) -> [UInt8] {
        if let length = try readArgument() {
            return Array(try take(length, itemStart: start))
        }
        var joined: [UInt8] = []
        for chunk in try chunks(major: major, start: start) { joined.append(contentsOf: chunk.bytes) }
        return joined
    }

    /// Text string contents. Indefinite text is validated chunk by chunk, as RFC 8949 §3.2.3
    /// requires (a chunk may not split a code point).
    private mutating func text(start: Int) throws(CBORError) -> String {
        if let length = try readArgument() {
            let slice = try take(length, itemStart: start)
            guard let s = String(validating: slice, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
            return s
        }
        var joined = ""
        for chunk in try chunks(major: 3, start: start) {
            guard let s = String(validating: chunk.bytes, as: UTF8.self) else {
                throw .invalidUTF8(offset: chunk.offset)
            }
            joined += s
        }
        return joined
    }

    /// The chunks of an indefinite-length string whose 0x5F/0x7F byte has been read.
    private mutating func chunks(major: UInt8, start: Int) throws(CBORError) -> [(offset: Int, bytes: ArraySlice<UInt8>)] {
        var result: [(offset: Int, bytes: ArraySlice<UInt8>)] = []
        while true {
            guard position < input.count else { throw .truncated(offset: start) }
            if input[position] == 0xFF {
                position += 1
                return result
            }
            let chunkStart = position
            try countItem(at: chunkStart)
            guard input[position] >> 5 == major, let length = try readArgument() else {
                throw .invalidChunk(offset: chunkStart)
            }
            result.append((chunkStart, try take(length, itemStart: chunkStart)))
        }
    }

    private mutating func enterContainer(start: Int, depth: Int) throws(CBORError) {
        if depth > limits.maxDepth { throw .depthLimitExceeded(offset: start, limit: limits.maxDepth) }
    }

    private mutating func array(start: Int, depth: Int) throws(CBORError) -> [CBORValue] {
        try enterContainer(start: start, depth: depth)
        var elements: [CBORValue] = []
        if let count = try readArgument() {
            // Each element takes at least one byte, so a count beyond the remaining bytes is a lie.
            guard count <= UInt64(remaining) else {
                throw .lengthExceedsInput(offset: start, length: count, remaining: remaining)
            }
            elements.reserveCapacity(Int(count))
            for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
            return elements
        }
        while true {
            guard position < input.count else { throw .truncated(offset: start) }
            if input[position] == 0xFF {
                position += 1
                return elements
            }
            elements.append(try value(depth: depth + 1))
        }
    }

    private mutating func map(start: Int, depth: Int) throws(CBORError) -> CBORMap {
        try enterContainer(start: start, depth: depth)
        var entries: [CBORMap.Entry] = []
        var seen = Set<CBORValue>()
        if let count = try readArgument() {
            // A key and a value take at least two bytes per entry.
            guard count <= UInt64(remaining / 2) else {
                throw .lengthExceedsInput(offset: start, length: count, remaining: remaining)
            }
            entries.reserveCapacity(Int(count))
            for _ in 0..<count {
                entries.append(try entry(depth: depth, seen: &seen, indefinite: false))
            }
            return CBORMap(entries)
        }
        while true {
            guard position < input.count else { throw .truncated(offset: start) }
            if input[position] == 0xFF {
                position += 1
                return CBORMap(entries)
            }
            entries.append(try entry(depth: depth, seen: &seen, indefinite: true))
        }
    }

    private mutating func entry(depth: Int, seen: inout Set<CBORValue>, indefinite: Bool) throws(CBORError) -> CBORMap.Entry {
        let keyStart = position
        let key = try value(depth: depth + 1)
        guard seen.insert(key).inserted else {
            // A hostile key can be kilobytes long; the message needs only enough to recognise it.
            throw .duplicateMapKey(offset: keyStart, key: String(key.description.prefix(64)))
        }
        // In an indefinite map a break here closes the map too early; in a definite map it is
        // simply a break where a value belongs, reported as such by `value`.
        if indefinite && position < input.count && input[position] == 0xFF {
            throw .missingMapValue(offset: position)
        }
        return CBORMap.Entry(key: key, value: try value(depth: depth + 1))
    }

    private mutating func simple(info: UInt8, start: Int) throws(CBORError) -> CBORValue {
        switch info {
        case 20: position += 1; return .bool(false)
        case 21: position += 1; return .bool(true)
        case 22: position += 1; return .null
        case 23: throw .unsupported(.undefined, offset: start)
        case 0..<20, 24: throw .unsupported(.simpleValue, offset: start)
        case 25, 26, 27: throw .unsupported(.float, offset: start)
        case 31: throw .unexpectedBreak(offset: start)
        default: throw .reservedAdditionalInfo(offset: start, initialByte: input[start])
        }
    }
}
