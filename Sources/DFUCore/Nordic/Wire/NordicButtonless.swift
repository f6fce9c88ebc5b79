import Transport

/// The buttonless DFU characteristic's requests and answers (nordic-secure-dfu.md §1.2): the
/// application takes `01` (enter the bootloader) or `02 <len> <name>` (the bootloader's advertised
/// name), and indicates `20 <request op> <status>`.
public enum NordicButtonless {
    public static let enterBootloader: [UInt8] = [0x01]
    static let setNameOpcode: UInt8 = 0x02
    static let responseCode: UInt8 = 0x20

    /// `02 <len> <UTF-8 name>`; nil when the name is not 1…20 bytes (the application answers 05).
    public static func setName(_ name: String) -> [UInt8]? {
        let bytes = Array(name.utf8)
        guard (1...20).contains(bytes.count) else { return nil }
        return [setNameOpcode, UInt8(bytes.count)] + bytes
    }

    /// The status of an answer to `opcode`, or nil when `bytes` are not one (another opcode, wrong
    /// length).
    public static func status(of bytes: [UInt8], answering opcode: UInt8) -> Status? {
        guard bytes.count == 3, bytes[0] == responseCode, bytes[1] == opcode else { return nil }
        return Status(rawValue: bytes[2])
    }

    public struct Status: Sendable, Hashable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let success = Status(rawValue: 0x01)

        public var description: String {
            let name: String
            switch rawValue {
            case 0x01: name = "success"
            case 0x02: name = "op code not supported"
            case 0x04: name = "operation failed"
            case 0x05: name = "invalid advertisement name"
            case 0x06: name = "busy"
            case 0x07: name = "not bonded"
            default: name = "unknown status"
            }
            return "\(name) (0x\(hexDigits(rawValue, width: 2)))"
        }
    }
}
