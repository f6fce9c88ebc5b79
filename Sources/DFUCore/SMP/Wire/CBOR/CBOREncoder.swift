/// Encodes `CBORValue`s. Integers, lengths and counts always take their shortest form (RFC 8949
/// §4.2.1 "preferred serialization"); strings are always definite-length.
///
/// Two knobs exist for the virtual device and for comparing with other encoders, not for the client:
/// `containerLength: .indefinite` writes arrays and maps the way Zephyr's zcbor does by default, so
/// the simulated device exercises the client's indefinite-length path; `keyOrder: .canonical` sorts
/// map keys as RFC 7049 §3.9 and Python's `cbor2.dumps(canonical=True)` do (shorter encoded key
/// first, then bytewise), which is what smpclient puts on the wire.
public struct CBOREncoder: Sendable {
    public enum ContainerLength: Sendable, Hashable {
        case definite
        case indefinite
    }

    public enum KeyOrder: Sendable, Hashable {
        /// Entries in the order the `CBORMap` holds them.
        case preserved
        /// Length-first canonical order (RFC 7049 §3.9).
        case canonical
    }

    public var containerLength: ContainerLength
    public var keyOrder: KeyOrder

    public init(containerLength: ContainerLength = .definite, keyOrder: KeyOrder = .preserved) {
        self.containerLength = containerLength
        self.keyOrder = keyOrder
    }

    public func encode(_ value: CBORValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    public func encode(_ map: CBORMap) -> [UInt8] {
        var out: [UInt8] = []
        append(map, to: &out)
        return out
    }

    public func append(_ value: CBORValue, to out: inout [UInt8]) {
        switch value {
        case .unsigned(let n):
            Self.appendHead(major: 0, argument: n, to: &out)
        case .negative(let n):
            Self.appendHead(major: 1, argument: n, to: &out)
        case .bytes(let b):
            Self.appendHead(major: 2, argument: UInt64(b.count), to: &out)
            out.append(contentsOf: b)
        case .text(let s):
            let utf8 = s.utf8
            Self.appendHead(major: 3, argument: UInt64(utf8.count), to: &out)
            out.append(contentsOf: utf8)
        case .array(let items):
            appendContainerHead(major: 4, count: items.count, to: &out)
            for item in items { append(item, to: &out) }
            if containerLength == .indefinite { out.append(0xFF) }
        case .map(let map):
            append(map, to: &out)
        case .bool(let b):
            out.append(b ? 0xF5 : 0xF4)
        case .null:
            out.append(0xF6)
        }
    }

    public func append(_ map: CBORMap, to out: inout [UInt8]) {
        appendContainerHead(major: 5, count: map.count, to: &out)
        switch keyOrder {
        case .preserved:
            for entry in map.entries {
                append(entry.key, to: &out)
                append(entry.value, to: &out)
            }
        case .canonical:
            let keyed = map.entries.map { (key: encode($0.key), value: $0.value) }
            let sorted = keyed.sorted { a, b in
                a.key.count != b.key.count ? a.key.count < b.key.count : a.key.lexicographicallyPrecedes(b.key)
            }
            for entry in sorted {
                out.append(contentsOf: entry.key)
                append(entry.value, to: &out)
            }
        }
        if containerLength == .indefinite { out.append(0xFF) }
    }

    private func appendContainerHead(major: UInt8, count: Int, to out: inout [UInt8]) {
        switch containerLength {
        case .definite: Self.appendHead(major: major, argument: UInt64(count), to: &out)
        case .indefinite: out.append(major << 5 | 31)
        }
    }

    /// The initial byte plus the shortest argument that holds `argument`.
    static func appendHead(major: UInt8, argument: UInt64, to out: inout [UInt8]) {
        let m = major << 5
        switch argument {
        case 0..<24:
            out.append(m | UInt8(argument))
        case 24...0xFF:
            out.append(m | 24)
            out.append(UInt8(argument))
        case 0x100...0xFFFF:
            out.append(m | 25)
            appendBigEndian(argument, byteCount: 2, to: &out)
        case 0x1_0000...0xFFFF_FFFF:
            out.append(m | 26)
            appendBigEndian(argument, byteCount: 4, to: &out)
        default:
            out.append(m | 27)
            appendBigEndian(argument, byteCount: 8, to: &out)
        }
    }

    /// Bytes the shortest head for `argument` takes (1, 2, 3, 5 or 9). Used to size upload chunks
    /// exactly instead of guessing the CBOR overhead.
    public static func headSize(forArgument argument: UInt64) -> Int {
        switch argument {
        case 0..<24: return 1
        case 24...0xFF: return 2
        case 0x100...0xFFFF: return 3
        case 0x1_0000...0xFFFF_FFFF: return 5
        default: return 9
        }
    }

    private static func appendBigEndian(_ value: UInt64, byteCount: Int, to out: inout [UInt8]) {
        for i in stride(from: byteCount - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> (UInt64(i) * 8)))
        }
    }
}

extension CBORValue {
    /// The value encoded with the default (definite, order-preserving) encoder.
    public func encoded() -> [UInt8] { CBOREncoder().encode(self) }
}

extension CBORMap {
    public func encoded() -> [UInt8] { CBOREncoder().encode(self) }
}
