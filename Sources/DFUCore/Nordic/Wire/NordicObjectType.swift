/// The two objects of a transfer (nordic-secure-dfu.md §3.1): the init packet (`.dat`) goes into the
/// command object, the firmware (`.bin`) into a series of data objects.
public enum NordicObjectType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case command = 0x01
    case data = 0x02

    public var description: String {
        switch self {
        case .command: return "command object"
        case .data: return "data object"
        }
    }
}
