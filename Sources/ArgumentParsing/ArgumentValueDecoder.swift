/// Builds a parsed command: the compiler-synthesised `init(from:)` of a `ParsableArguments` type
/// asks this decoder for each stored property; the property wrappers then take their value from
/// `ParsedValues` by the property path. Nothing else is decodable through it.
struct ArgumentValueDecoder: Decoder {
    /// A declaration and the parsed values disagree. This is a bug in the tool, not a usage error.
    struct Mismatch: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    let values: ParsedValues
    let path: [String]

    init(values: ParsedValues, path: [String] = []) {
        self.values = values
        self.path = path
    }

    var codingPath: [any CodingKey] { path.map(PathKey.init(stringValue:)) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw Mismatch(description: "\(key) is not a declared argument")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw Mismatch(description: "\(key) is not a declared argument")
    }

    /// The value for the property this decoder stands at, as the wrapper's type.
    static func value<Value>(_ type: Value.Type, from decoder: any Decoder) throws -> Value {
        guard let decoder = decoder as? ArgumentValueDecoder else {
            throw Mismatch(description: "command arguments can only be built by ArgumentParsing")
        }
        guard let stored = decoder.values[decoder.key] else {
            throw Mismatch(description: "no value for \(decoder.key)")
        }
        guard let value = stored as? Value else {
            throw Mismatch(description: "the value for \(decoder.key) is not a \(Value.self)")
        }
        return value
    }

    private var key: String { path.joined(separator: ".") }

    private func appending(_ name: String) -> ArgumentValueDecoder {
        ArgumentValueDecoder(values: values, path: path + [name])
    }

    private struct PathKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: ArgumentValueDecoder

        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try T(from: decoder.appending(key.stringValue))
        }

        // A plain stored property of a primitive type is not a declared argument.
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { throw undeclared(key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { throw undeclared(key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw undeclared(key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw undeclared(key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { throw undeclared(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw undeclared(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw undeclared(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw undeclared(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw undeclared(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw undeclared(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw undeclared(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw undeclared(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw undeclared(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw undeclared(key) }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            throw undeclared(key)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw undeclared(key)
        }

        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder.appending(key.stringValue) }

        private func undeclared(_ key: Key) -> Mismatch {
            Mismatch(description: "\(decoder.appending(key.stringValue).key) is not a declared argument")
        }
    }
}
