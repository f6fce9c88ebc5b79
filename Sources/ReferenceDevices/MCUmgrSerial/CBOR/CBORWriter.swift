extension MCUmgrSerial {
    /// Encodes responses the way zcbor does: integers and string lengths in their shortest form;
    /// maps and arrays as indefinite-length (`0xBF … 0xFF`, `0x9F … 0xFF`) unless zcbor is built
    /// canonical (`CONFIG_ZCBOR_CANONICAL`, default n), then definite-length (zcbor_encode.c
    /// `list_map_start_encode` / `list_map_end_encode`).
    enum CBORWriter {
        static func encode(_ item: CBORItem, canonical: Bool) -> [UInt8] {
            var out: [UInt8] = []
            append(item, to: &out, canonical: canonical)
            return out
        }

        private static func append(_ item: CBORItem, to out: inout [UInt8], canonical: Bool) {
            switch item {
            case .unsigned(let value): head(0, value, &out)
            case .negative(let value): head(1, value, &out)
            case .bytes(let value):
                head(2, UInt64(value.count), &out)
                out += value
            case .text(let value):
                head(3, UInt64(value.count), &out)
                out += value
            case .array(let items):
                if canonical { head(4, UInt64(items.count), &out) } else { out.append(0x9F) }
                for element in items { append(element, to: &out, canonical: canonical) }
                if !canonical { out.append(0xFF) }
            case .map(let pairs):
                if canonical { head(5, UInt64(pairs.count), &out) } else { out.append(0xBF) }
                for pair in pairs {
                    append(pair.key, to: &out, canonical: canonical)
                    append(pair.value, to: &out, canonical: canonical)
                }
                if !canonical { out.append(0xFF) }
            case .tagged(let tag, let inner):
                head(6, tag, &out)
                append(inner, to: &out, canonical: canonical)
            case .bool(let value): out.append(value ? 0xF5 : 0xF4)
            case .null: out.append(0xF6)
            case .undefined: out.append(0xF7)
            case .simple(let value): head(7, value, &out)
            }
        }

        private static func head(_ major: UInt8, _ value: UInt64, _ out: inout [UInt8]) {
            let type = major << 5
            switch value {
            case 0..<24: out.append(type | UInt8(value))
            case 24...0xFF: out += [type | 24, UInt8(value)]
            case 0x100...0xFFFF: out += [type | 25, UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
            case 0x10000...0xFFFF_FFFF:
                out.append(type | 26)
                for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
            default:
                out.append(type | 27)
                for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
            }
        }
    }
}
