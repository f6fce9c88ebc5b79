/// `dfu.InitCommand` as the bootloader decodes it (dfu-cc.proto; limits from dfu-cc.options:
/// hash ≤ 32 bytes, sd_req ≤ 16 entries, boot_validation ≤ 3 entries of ≤ 64 bytes). Absent optional
/// fields are nil, as nanopb's `has_` flags say.
struct InitCommand: Sendable, Hashable {
    /// `FwType` values.
    enum FirmwareType: UInt32 {
        case application = 0
        case softDevice = 1
        case bootloader = 2
        case softDeviceBootloader = 3
        case externalApplication = 4
    }

    struct Hash: Sendable, Hashable {
        var type: UInt32?
        var bytes: [UInt8]?
    }

    struct BootValidation: Sendable, Hashable {
        var type: UInt32?
        var bytes: [UInt8]?
    }

    var fwVersion: UInt32?
    var hwVersion: UInt32?
    var sdReq: [UInt32] = []
    var type: UInt32?
    var sdSize: UInt32?
    var blSize: UInt32?
    var appSize: UInt32?
    var hash: Hash?
    var isDebug: Bool?
    var bootValidation: [BootValidation] = []

    /// `HashType.SHA256`.
    static let sha256HashType: UInt32 = 3

    /// Decodes fields from `reader` into `self`, merging like `pb_decode_noinit` (a repeated field
    /// appends, a later scalar wins).
    mutating func merge(from reader: inout ProtobufReader) -> Bool {
        while !reader.isAtEnd {
            guard let (field, wire) = reader.key() else { return false }
            switch (field, wire) {
            case (1, .varint): guard let value = reader.uint32() else { return false }; fwVersion = value
            case (2, .varint): guard let value = reader.uint32() else { return false }; hwVersion = value
            case (3, .varint):
                guard let value = reader.uint32(), sdReq.count < 16 else { return false }
                sdReq.append(value)
            case (3, .lengthDelimited):
                guard let range = reader.lengthDelimited() else { return false }
                var packed = reader.sub(range)
                while !packed.isAtEnd {
                    guard let value = packed.uint32(), sdReq.count < 16 else { return false }
                    sdReq.append(value)
                }
            case (4, .varint): guard let value = reader.uint32() else { return false }; type = value
            case (5, .varint): guard let value = reader.uint32() else { return false }; sdSize = value
            case (6, .varint): guard let value = reader.uint32() else { return false }; blSize = value
            case (7, .varint): guard let value = reader.uint32() else { return false }; appSize = value
            case (8, .lengthDelimited):
                guard let range = reader.lengthDelimited() else { return false }
                var sub = reader.sub(range)
                var value = Hash()
                // Both fields are required in each occurrence; a second occurrence overwrites both.
                guard Self.decodePair(&sub, type: &value.type, bytes: &value.bytes, maxBytes: 32),
                      value.type != nil, value.bytes != nil else { return false }
                hash = value
            case (9, .varint): guard let value = reader.varint() else { return false }; isDebug = value != 0
            case (10, .lengthDelimited):
                guard let range = reader.lengthDelimited(), bootValidation.count < 3 else { return false }
                var sub = reader.sub(range)
                var value = BootValidation()
                guard Self.decodePair(&sub, type: &value.type, bytes: &value.bytes, maxBytes: 64),
                      value.type != nil, value.bytes != nil else { return false }
                bootValidation.append(value)
            case (1...10, _):
                // A known field with the wrong wire type: refused (see InitPacketDecoder's notes).
                return false
            default:
                guard reader.skip(wire) else { return false }
            }
        }
        return true
    }

    /// `Hash` and `BootValidation` share one shape: a required enum (1) and required bytes (2).
    /// Bytes longer than the field's `max_size` fail, as nanopb's "bytes overflow" does.
    static func decodePair(_ reader: inout ProtobufReader, type: inout UInt32?, bytes: inout [UInt8]?,
                           maxBytes: Int) -> Bool {
        while !reader.isAtEnd {
            guard let (field, wire) = reader.key() else { return false }
            switch (field, wire) {
            case (1, .varint):
                guard let value = reader.uint32() else { return false }
                type = value
            case (2, .lengthDelimited):
                guard let range = reader.lengthDelimited(), range.count <= maxBytes else { return false }
                bytes = Array(reader.bytes[range])
            case (1, _), (2, _):
                return false
            default:
                guard reader.skip(wire) else { return false }
            }
        }
        return true
    }
}
