/// The Control Point opcodes a BLE client uses (nordic-secure-dfu.md §2). The BLE transport parses
/// parameters only for Create, Set PRN and Select, and adds payloads only to Select and Calculate
/// Checksum replies, so the serial-only opcodes (ping, MTU, versions) are left out on purpose.
public enum NordicOpcode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case createObject = 0x01
    case setPRN = 0x02
    case calculateChecksum = 0x03
    case execute = 0x04
    case selectObject = 0x06
    case abort = 0x0C

    /// The first byte of every Control Point notification.
    public static let responseCode: UInt8 = 0x60

    public var description: String {
        switch self {
        case .createObject: return "Create"
        case .setPRN: return "Set PRN"
        case .calculateChecksum: return "Calculate Checksum"
        case .execute: return "Execute"
        case .selectObject: return "Select"
        case .abort: return "Abort"
        }
    }
}
