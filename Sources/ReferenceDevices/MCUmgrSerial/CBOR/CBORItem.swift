extension MCUmgrSerial {
    /// One CBOR data item (RFC 8949), as much of CBOR as SMP payloads use plus what a client might
    /// send that the firmware must skip. Maps keep their order and duplicate keys.
    indirect enum CBORItem: Equatable {
        case unsigned(UInt64)
        /// The value -1 - n.
        case negative(UInt64)
        case bytes([UInt8])
        /// The UTF-8 bytes as received (zcbor compares keys byte for byte).
        case text([UInt8])
        case array([CBORItem])
        case map([CBORPair])
        case tagged(UInt64, CBORItem)
        case bool(Bool)
        case null
        case undefined
        /// Other simple values and floats, kept as their raw bits.
        case simple(UInt64)

        static func text(_ string: String) -> CBORItem { .text(Array(string.utf8)) }

        var textValue: String? {
            if case .text(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
            return nil
        }
    }

    struct CBORPair: Equatable {
        var key: CBORItem
        var value: CBORItem

        init(_ key: CBORItem, _ value: CBORItem) {
            self.key = key
            self.value = value
        }

        init(_ key: String, _ value: CBORItem) {
            self.init(.text(key), value)
        }
    }
}
