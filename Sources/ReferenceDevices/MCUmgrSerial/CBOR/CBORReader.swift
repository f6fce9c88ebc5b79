extension MCUmgrSerial {
    /// Decodes one CBOR item as zcbor's decoder (non-canonical build) accepts it: any argument
    /// length for integers, definite and indefinite arrays and maps; definite strings only
    /// (zcbor has no indefinite-length strings). Nil on malformed or truncated input.
    struct CBORReader {
        private let bytes: [UInt8]
        private(set) var position: Int
        private var depth = 0
        private static let maximumDepth = 16

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = Array(bytes)
            position = 0
        }

        /// The first item of `bytes`, ignoring what follows it.
        static func decodeFirst(_ bytes: ArraySlice<UInt8>) -> CBORItem? {
            var reader = CBORReader(bytes)
            return reader.next()
        }

        mutating func next() -> CBORItem? {
            guard position < bytes.count else { return nil }
            let initial = bytes[position]
            position += 1
            let major = initial >> 5
            let info = initial & 0x1F
            if info == 31 {
                return indefinite(major: major)
            }
            guard let argument = argument(info) else { return nil }
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2, 3:
                guard argument <= UInt64(bytes.count - position) else { return nil }
                let count = Int(argument)
                let value = Array(bytes[position..<position + count])
                position += count
                return major == 2 ? .bytes(value) : .text(value)
            case 4:
                guard argument <= UInt64(bytes.count - position) else { return nil }
                return nested { reader in
                    var items: [CBORItem] = []
                    for _ in 0..<Int(argument) {
                        guard let item = reader.next() else { return nil }
                        items.append(item)
                    }
                    return .array(items)
                }
            case 5:
                guard argument <= UInt64(bytes.count - position) else { return nil }
                return nested { reader in
                    var pairs: [CBORPair] = []
                    for _ in 0..<Int(argument) {
                        guard let key = reader.next(), let value = reader.next() else { return nil }
                        pairs.append(CBORPair(key, value))
                    }
                    return .map(pairs)
                }
            case 6:
                return nested { reader in reader.next().map { .tagged(argument, $0) } }
            default:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                case 23: return .undefined
                default: return .simple(argument)
                }
            }
        }

        private mutating func nested(_ body: (inout CBORReader) -> CBORItem?) -> CBORItem? {
            guard depth < Self.maximumDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            return body(&self)
        }

        private mutating func indefinite(major: UInt8) -> CBORItem? {
            switch major {
            case 4:
                return nested { reader in
                    var items: [CBORItem] = []
                    while true {
                        guard reader.position < reader.bytes.count else { return nil }
                        if reader.bytes[reader.position] == 0xFF {
                            reader.position += 1
                            return .array(items)
                        }
                        guard let item = reader.next() else { return nil }
                        items.append(item)
                    }
                }
            case 5:
                return nested { reader in
                    var pairs: [CBORPair] = []
                    while true {
                        guard reader.position < reader.bytes.count else { return nil }
                        if reader.bytes[reader.position] == 0xFF {
                            reader.position += 1
                            return .map(pairs)
                        }
                        guard let key = reader.next(), let value = reader.next() else { return nil }
                        pairs.append(CBORPair(key, value))
                    }
                }
            default:
                return nil
            }
        }

        private mutating func argument(_ info: UInt8) -> UInt64? {
            if info < 24 { return UInt64(info) }
            let length: Int
            switch info {
            case 24: length = 1
            case 25: length = 2
            case 26: length = 4
            case 27: length = 8
            default: return nil
            }
            guard position + length <= bytes.count else { return nil }
            var value: UInt64 = 0
            for byte in bytes[position..<position + length] { value = value << 8 | UInt64(byte) }
            position += length
            return value
        }
    }
}
