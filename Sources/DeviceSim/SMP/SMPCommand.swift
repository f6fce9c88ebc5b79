import DFUCore

/// The server's handler table (Zephyr `mgmt_find_handler` plus the `mh_read`/`mh_write` slots):
/// which (group, command, op) triples exist. Anything else is `rc 8` (ENOTSUP). Public for the
/// faults that name a request (`SMPRequestPoint`).
public enum SMPCommand: Sendable, Hashable, CaseIterable {
    case osEcho
    case osReset
    case osParameters
    case osBootloaderInfo
    case osInfo
    case imageStateRead
    case imageStateWrite
    case imageUpload
    case imageErase
    case imageSlotInfo
    /// SUIT manifest list (group 66, command 0): only a `kind: .suit` server has it.
    case suitManifestList

    init?(_ header: SMPRequestHeader) {
        let read = header.op == SMPOp.read.rawValue
        let write = header.op == SMPOp.write.rawValue
        switch (header.group, header.command) {
        case (.os, OSMgmtCommand.echo.rawValue) where read || write: self = .osEcho
        case (.os, OSMgmtCommand.reset.rawValue) where write: self = .osReset
        case (.os, OSMgmtCommand.mcumgrParameters.rawValue) where read: self = .osParameters
        case (.os, OSMgmtCommand.bootloaderInfo.rawValue) where read: self = .osBootloaderInfo
        case (.os, OSMgmtCommand.info.rawValue) where read: self = .osInfo
        case (.image, ImageMgmtCommand.state.rawValue) where read: self = .imageStateRead
        case (.image, ImageMgmtCommand.state.rawValue) where write: self = .imageStateWrite
        case (.image, ImageMgmtCommand.upload.rawValue) where write: self = .imageUpload
        case (.image, ImageMgmtCommand.erase.rawValue) where write: self = .imageErase
        case (.image, ImageMgmtCommand.slotInfo.rawValue) where read: self = .imageSlotInfo
        case (.suit, 0) where read: self = .suitManifestList
        default: return nil
        }
    }

    /// The request's name in fault options (`drop@request:state-write`).
    public var name: String {
        switch self {
        case .osEcho: return "echo"
        case .osReset: return "reset"
        case .osParameters: return "params"
        case .osBootloaderInfo: return "bootloader-info"
        case .osInfo: return "os-info"
        case .imageStateRead: return "state-read"
        case .imageStateWrite: return "state-write"
        case .imageUpload: return "upload"
        case .imageErase: return "erase"
        case .imageSlotInfo: return "slot-info"
        case .suitManifestList: return "suit"
        }
    }

    init?(name: String) {
        guard let command = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = command
    }

    /// Whether the handler decodes its request map (Zephyr's bulk decoder fails on bytes that are
    /// not a map, which is EINVAL); the others never look at the body.
    var readsBody: Bool {
        switch self {
        case .osEcho, .osReset, .osBootloaderInfo, .osInfo, .imageStateWrite, .imageUpload, .imageErase: return true
        case .osParameters, .imageStateRead, .imageSlotInfo, .suitManifestList: return false
        }
    }
}
