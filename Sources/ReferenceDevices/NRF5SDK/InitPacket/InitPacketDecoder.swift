/// What the bootloader takes out of a received init packet (`dfu.Packet`), by the rules of
/// nrf_dfu_validation.c `stored_init_cmd_decode` and its `pb_decoding_callback` (SDK 17.0).
struct DecodedInitPacket: Sendable, Hashable {
    var command: InitCommand
    /// Present for `Packet.signed_command`: its `signature_type` and `signature`.
    var signatureType: UInt32?
    var signature: [UInt8]?
    var isSigned: Bool
    /// The bytes the signature covers: from the start of `Command.init`'s value to the end of the
    /// `Command` that holds it (the callback keeps the stream's position after the length prefix and
    /// everything left in that stream). With nrfutil's packets, `init` is the last field of
    /// `Command`, so this is exactly the serialized `InitCommand`.
    var signedBytes: [UInt8]
}

/// Decodes `dfu.Packet` (dfu-cc.proto). Returns nil where the SDK's decode fails, which the request
/// handler answers with 05 (invalid object):
/// - malformed wire data, a value over nanopb's limits, a missing required field;
/// - no `Command.init` anywhere, or more than one (SDK 17's callback marks the packet invalid);
/// - both `command` and `signed_command`, or a `signed_command` whose command has no `init`.
///
/// Decided where the SDK is unclear: nanopb 0.3 does not check a known field's wire type and would
/// read such bytes some other way; this model refuses a known field with the wrong wire type.
enum InitPacketDecoder {
    static func decode(_ bytes: [UInt8]) -> DecodedInitPacket? {
        var state = State()
        var reader = ProtobufReader(bytes, range: 0 ..< bytes.count)
        var plain: InitCommand?
        var hasPlainCommand = false
        var signed: (command: InitCommand?, type: UInt32?, signature: [UInt8]?)?
        while !reader.isAtEnd {
            guard let (field, wire) = reader.key() else { return nil }
            switch (field, wire) {
            case (1, .lengthDelimited):
                guard let range = reader.lengthDelimited() else { return nil }
                var sub = reader.sub(range)
                guard let command = state.decodeCommand(&sub, into: plain) else { return nil }
                plain = command
                hasPlainCommand = true
            case (2, .lengthDelimited):
                guard let range = reader.lengthDelimited() else { return nil }
                var sub = reader.sub(range)
                guard let value = state.decodeSignedCommand(&sub) else { return nil }
                signed = value
            case (1, _), (2, _):
                return nil
            default:
                guard reader.skip(wire) else { return nil }
            }
        }
        guard !state.invalid, let region = state.initRegion else { return nil }
        let signedBytes = Array(bytes[region])
        if let signed {
            // The init command is decoded again from the recorded region (stored_init_cmd_decode).
            guard !hasPlainCommand, signed.command != nil else { return nil }
            var again = ProtobufReader(bytes, range: region)
            var command = InitCommand()
            guard command.merge(from: &again) else { return nil }
            return DecodedInitPacket(command: command, signatureType: signed.type, signature: signed.signature,
                                     isSigned: true, signedBytes: signedBytes)
        }
        guard let plain else { return nil }
        return DecodedInitPacket(command: plain, signatureType: nil, signature: nil, isSigned: false,
                                 signedBytes: signedBytes)
    }

    private struct State {
        var initRegion: Range<Int>?
        var invalid = false

        /// `dfu.Command`: op_code (1), init (2). Returns the init command it holds, if any (nil
        /// result = malformed; an absent init gives `existing`).
        mutating func decodeCommand(_ reader: inout ProtobufReader, into existing: InitCommand?) -> InitCommand?? {
            var command = existing
            while !reader.isAtEnd {
                guard let (field, wire) = reader.key() else { return nil }
                switch (field, wire) {
                case (1, .varint):
                    guard reader.uint32() != nil else { return nil }
                case (2, .lengthDelimited):
                    guard let range = reader.lengthDelimited() else { return nil }
                    // pb_decoding_callback: a second init makes the packet invalid (SDK 17).
                    if initRegion != nil { invalid = true }
                    initRegion = range.lowerBound ..< reader.end
                    var sub = reader.sub(range)
                    var value = command ?? InitCommand()
                    guard value.merge(from: &sub) else { return nil }
                    command = value
                case (1, _), (2, _):
                    return nil
                default:
                    guard reader.skip(wire) else { return nil }
                }
            }
            return .some(command)
        }

        /// `dfu.SignedCommand`: command (1), signature_type (2), signature (3, ≤ 64 bytes), all required.
        mutating func decodeSignedCommand(_ reader: inout ProtobufReader)
            -> (command: InitCommand?, type: UInt32?, signature: [UInt8]?)? {
            var sawCommand = false
            var command: InitCommand?
            var type: UInt32?
            var signature: [UInt8]?
            while !reader.isAtEnd {
                guard let (field, wire) = reader.key() else { return nil }
                switch (field, wire) {
                case (1, .lengthDelimited):
                    guard let range = reader.lengthDelimited() else { return nil }
                    var sub = reader.sub(range)
                    guard let decoded = decodeCommand(&sub, into: command) else { return nil }
                    command = decoded
                    sawCommand = true
                case (2, .varint):
                    guard let value = reader.uint32() else { return nil }
                    type = value
                case (3, .lengthDelimited):
                    guard let range = reader.lengthDelimited(), range.count <= 64 else { return nil }
                    signature = Array(reader.bytes[range])
                case (1, _), (2, _), (3, _):
                    return nil
                default:
                    guard reader.skip(wire) else { return nil }
                }
            }
            guard sawCommand, type != nil, signature != nil else { return nil }
            return (command, type, signature)
        }
    }
}
