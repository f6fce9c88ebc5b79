extension MCUmgrSerial {
    /// The value decoders a handler names for a key (`zcbor_uint32_decode`, `zcbor_size_decode`
    /// on a 32-bit MCU, `zcbor_bstr_decode`, `zcbor_tstr_decode`, `zcbor_bool_decode`).
    enum ZCBORKind { case uint32, bytes, text, bool }

    enum ZCBORValue: Equatable {
        case uint32(UInt32)
        case bytes([UInt8])
        case text([UInt8])
        case bool(Bool)

        var uint32: UInt32? { if case .uint32(let v) = self { return v } else { return nil } }
        var bytes: [UInt8]? { if case .bytes(let v) = self { return v } else { return nil } }
        var text: [UInt8]? { if case .text(let v) = self { return v } else { return nil } }
        var bool: Bool? { if case .bool(let v) = self { return v } else { return nil } }
    }

    /// zcbor_bulk.c `zcbor_map_decode_bulk` (the copy in MCUboot's boot_serial and in Zephyr's
    /// mcumgr util): the payload must start with a map; keys are read as text strings in order;
    /// a key in the table is decoded with its decoder (wrong type → failure), a key seen twice →
    /// failure (-EADDRINUSE), other keys are skipped; a key that is not a text string stops the walk
    /// and then `zcbor_map_end_decode` fails because entries remain. Nil = failure.
    static func zcborMapDecodeBulk(_ payload: ArraySlice<UInt8>, _ table: [String: ZCBORKind]) -> [String: ZCBORValue]? {
        let result = zcborMapDecodeBulkPartial(payload, table)
        return result.ok ? result.values : nil
    }

    /// The same, also giving what was decoded before a failure (the reset handler ignores the
    /// failure and uses `zcbor_map_decode_bulk_key_found`). A payload that is not well-formed CBOR
    /// yields nothing at all here, where zcbor would keep the keys before the bad item.
    static func zcborMapDecodeBulkPartial(_ payload: ArraySlice<UInt8>, _ table: [String: ZCBORKind])
        -> (values: [String: ZCBORValue], ok: Bool) {
        guard case .map(let pairs)? = CBORReader.decodeFirst(payload) else { return ([:], false) }
        var found: [String: ZCBORValue] = [:]
        for pair in pairs {
            guard case .text(let keyBytes) = pair.key else { return (found, false) }
            let key = String(decoding: keyBytes, as: UTF8.self)
            guard Array(key.utf8) == keyBytes, let kind = table[key] else { continue }
            guard found[key] == nil, let value = zcborValue(pair.value, kind) else { return (found, false) }
            found[key] = value
        }
        return (found, true)
    }

    static func zcborValue(_ item: CBORItem, _ kind: ZCBORKind) -> ZCBORValue? {
        switch (kind, item) {
        case (.uint32, .unsigned(let v)) where v <= UInt64(UInt32.max): return .uint32(UInt32(v))
        case (.bytes, .bytes(let v)): return .bytes(v)
        case (.text, .text(let v)): return .text(v)
        case (.bool, .bool(let v)): return .bool(v)
        default: return nil
        }
    }
}
