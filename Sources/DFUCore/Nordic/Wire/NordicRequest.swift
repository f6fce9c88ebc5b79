/// A Control Point request and its bytes (nordic-secure-dfu.md §2): opcode, then little-endian
/// parameters. Written with Write Request; the answer comes as a notification (`NordicResponse`).
public enum NordicRequest: Sendable, Hashable, CustomStringConvertible {
    /// `01 <type> <size u32>`: a new object of `size` bytes.
    case create(NordicObjectType, size: UInt32)
    /// `02 <prn u16>`: a checksum notification after every `prn` packet writes; 0 turns them off.
    case setPRN(UInt16)
    /// `03`: the device's offset and CRC of everything received.
    case calculateChecksum
    /// `04`: commit the current object (the last data object also validates and resets).
    case execute
    /// `06 <type>`: the object's maximum size and the device's offset and CRC in it.
    case select(NordicObjectType)
    /// `0C`: the bootloader gives up and resets (SDK 15+); an answer may not come.
    case abort

    public var opcode: NordicOpcode {
        switch self {
        case .create: return .createObject
        case .setPRN: return .setPRN
        case .calculateChecksum: return .calculateChecksum
        case .execute: return .execute
        case .select: return .selectObject
        case .abort: return .abort
        }
    }

    public var encoded: [UInt8] {
        switch self {
        case .create(let type, let size): return [opcode.rawValue, type.rawValue] + LittleEndian.bytes(size)
        case .setPRN(let value): return [opcode.rawValue] + LittleEndian.bytes(value)
        case .select(let type): return [opcode.rawValue, type.rawValue]
        case .calculateChecksum, .execute, .abort: return [opcode.rawValue]
        }
    }

    /// Reads a request back (for the virtual bootloader and tests); nil for anything else.
    public init?(decoding bytes: [UInt8]) {
        guard let first = bytes.first, let opcode = NordicOpcode(rawValue: first) else { return nil }
        let parameters = Array(bytes.dropFirst())
        switch opcode {
        case .createObject:
            guard parameters.count == 5, let type = NordicObjectType(rawValue: parameters[0]),
                  let size = LittleEndian.u32(parameters, at: 1) else { return nil }
            self = .create(type, size: size)
        case .setPRN:
            guard parameters.count == 2, let value = LittleEndian.u16(parameters, at: 0) else { return nil }
            self = .setPRN(value)
        case .selectObject:
            guard parameters.count == 1, let type = NordicObjectType(rawValue: parameters[0]) else { return nil }
            self = .select(type)
        case .calculateChecksum, .execute, .abort:
            guard parameters.isEmpty else { return nil }
            self = opcode == .calculateChecksum ? .calculateChecksum : opcode == .execute ? .execute : .abort
        }
    }

    public var description: String {
        switch self {
        case .create(let type, let size): return "Create \(type) of \(size) bytes"
        case .setPRN(let value): return "Set PRN \(value)"
        case .calculateChecksum: return "Calculate Checksum"
        case .execute: return "Execute"
        case .select(let type): return "Select \(type)"
        case .abort: return "Abort"
        }
    }
}
