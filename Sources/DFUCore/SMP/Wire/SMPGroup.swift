/// An SMP management group id (Zephyr `mcumgr_group_t`). A struct rather than an enum because the
/// field is 16 bits wide and user groups (64 and up) are legitimate; the named constants are the
/// ones Zephyr defines.
public struct SMPGroup: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let os = SMPGroup(rawValue: 0)
    public static let image = SMPGroup(rawValue: 1)
    public static let statistics = SMPGroup(rawValue: 2)
    public static let settings = SMPGroup(rawValue: 3)
    public static let log = SMPGroup(rawValue: 4)
    public static let crash = SMPGroup(rawValue: 5)
    public static let split = SMPGroup(rawValue: 6)
    public static let run = SMPGroup(rawValue: 7)
    public static let fileSystem = SMPGroup(rawValue: 8)
    public static let shell = SMPGroup(rawValue: 9)
    public static let enumeration = SMPGroup(rawValue: 10)
    public static let zephyrBasic = SMPGroup(rawValue: 63)
    /// The first id of application-defined groups.
    public static let firstUserGroup = SMPGroup(rawValue: 64)
    /// Nordic's SUIT management (user group 66): devices updated with SUIT envelopes, not MCUboot.
    public static let suit = SMPGroup(rawValue: 66)

    public var description: String {
        let name: String
        switch self {
        case .os: name = "OS"
        case .image: name = "image"
        case .statistics: name = "statistics"
        case .settings: name = "settings"
        case .log: name = "log"
        case .crash: name = "crash"
        case .split: name = "split"
        case .run: name = "run"
        case .fileSystem: name = "file system"
        case .shell: name = "shell"
        case .enumeration: name = "enumeration"
        case .zephyrBasic: name = "Zephyr basic"
        case .suit: name = "SUIT"
        default: name = rawValue >= 64 ? "user" : "unassigned"
        }
        return "\(rawValue) (\(name))"
    }
}

/// Command ids of the image management group (Zephyr `IMG_MGMT_ID_*`).
public enum ImageMgmtCommand: UInt8, Sendable, Hashable, CaseIterable {
    case state = 0
    case upload = 1
    case file = 2
    case coreList = 3
    case coreLoad = 4
    case erase = 5
    case slotInfo = 6
}

/// Command ids of the OS management group (Zephyr `OS_MGMT_ID_*`).
public enum OSMgmtCommand: UInt8, Sendable, Hashable, CaseIterable {
    case echo = 0
    case consoleEchoControl = 1
    case taskStatistics = 2
    case memoryPoolStatistics = 3
    case dateTime = 4
    case reset = 5
    case mcumgrParameters = 6
    case info = 7
    case bootloaderInfo = 8
}
