import DFUCore

/// `zcbor_map_decode_bulk` as MCUboot's `zcbor_bulk.c` applies it to a request body: the body must
/// be one map whose keys are all text; a known key must hold its kind and come once; other keys
/// are skipped. Any other shape fails the whole decode (the handler then answers `rc 3`).
enum BulkMapDecoding {
    enum Kind: Sendable {
        /// `zcbor_uint32_decode`, and `zcbor_size_decode` on a 32-bit target.
        case uint32
        /// `zcbor_bstr_decode`.
        case bytes
        /// `zcbor_tstr_decode`.
        case text
    }

    /// The known keys found, with their values; nil when the decode fails.
    static func decode(_ body: ArraySlice<UInt8>, keys: [String: Kind]) -> [String: CBORValue]? {
        guard let value = try? CBORDecoder().decode(body, allowTrailingBytes: true), let map = value.map else { return nil }
        var found: [String: CBORValue] = [:]
        for entry in map.entries {
            guard let key = entry.key.text else { return nil }
            guard let kind = keys[key] else { continue }
            guard found[key] == nil, fits(entry.value, kind) else { return nil }
            found[key] = entry.value
        }
        return found
    }

    private static func fits(_ value: CBORValue, _ kind: Kind) -> Bool {
        switch kind {
        case .uint32: return value.uint.map { $0 <= UInt64(UInt32.max) } ?? false
        case .bytes: return value.bytes != nil
        case .text: return value.text != nil
        }
    }
}
