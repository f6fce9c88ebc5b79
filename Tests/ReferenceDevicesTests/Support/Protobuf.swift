/// A tiny protobuf encoder for the tests, written from the wire format (varints, keys
/// `field << 3 | wire type`, length-delimited values), to build init packets independently of the
/// model's decoder.
enum Protobuf {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value != 0
        return bytes
    }

    static func key(_ field: UInt64, wire: UInt64) -> [UInt8] { varint(field << 3 | wire) }

    static func uint(_ field: UInt64, _ value: UInt64) -> [UInt8] { key(field, wire: 0) + varint(value) }

    static func bytes(_ field: UInt64, _ value: [UInt8]) -> [UInt8] {
        key(field, wire: 2) + varint(UInt64(value.count)) + value
    }

    static func packed(_ field: UInt64, _ values: [UInt64]) -> [UInt8] {
        bytes(field, values.flatMap { varint($0) })
    }
}

/// `dfu.InitCommand` fields as pc-nrfutil fills them for an application (dfu-cc.proto field numbers),
/// with knobs for the refusals.
struct InitCommandFields {
    var fwVersion: UInt64? = 2
    var hwVersion: UInt64? = 52
    var sdReq: [UInt64] = [0x0101]
    var type: UInt64? = 0
    var appSize: UInt64?
    var blSize: UInt64?
    var hashType: UInt64 = 3
    /// SHA-256 of the image, stored byte-reversed as nrfutil does.
    var hash: [UInt8] = []
    var bootValidation: [(type: UInt64, bytes: [UInt8])] = [(1, [0, 0, 0, 0])]

    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        if let fwVersion { out += Protobuf.uint(1, fwVersion) }
        if let hwVersion { out += Protobuf.uint(2, hwVersion) }
        if !sdReq.isEmpty { out += Protobuf.packed(3, sdReq) }
        if let type { out += Protobuf.uint(4, type) }
        if let blSize { out += Protobuf.uint(6, blSize) }
        if let appSize { out += Protobuf.uint(7, appSize) }
        out += Protobuf.bytes(8, Protobuf.uint(1, hashType) + Protobuf.bytes(2, hash))
        out += Protobuf.uint(9, 0)
        for entry in bootValidation {
            out += Protobuf.bytes(10, Protobuf.uint(1, entry.type) + Protobuf.bytes(2, entry.bytes))
        }
        return out
    }
}

/// `dfu.Packet` around an init command.
enum InitPacket {
    /// `Packet.signed_command { command { op_code INIT, init }, signature_type, signature }`.
    static func signed(_ initCommand: [UInt8], signature: [UInt8], signatureType: UInt64 = 0) -> [UInt8] {
        let command = Protobuf.uint(1, 1) + Protobuf.bytes(2, initCommand)
        let signedCommand = Protobuf.bytes(1, command) + Protobuf.uint(2, signatureType) + Protobuf.bytes(3, signature)
        return Protobuf.bytes(2, signedCommand)
    }

    /// `Packet.command { op_code INIT, init }`: no signature.
    static func unsigned(_ initCommand: [UInt8]) -> [UInt8] {
        Protobuf.bytes(1, Protobuf.uint(1, 1) + Protobuf.bytes(2, initCommand))
    }
}
