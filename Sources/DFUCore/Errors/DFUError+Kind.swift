extension DFUError {
    /// Which failure it was, without its words or payload: what a record keeps of it (the journal's
    /// last outcome), and what the tools map to an exit code.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case usage
        case image
        case updateFile = "update-file"
        case fileUnreadable = "file-unreadable"
        case fileChanged = "file-changed"
        case precondition
        case deviceUnreachable = "device-unreachable"
        case transferInterrupted = "transfer-interrupted"
        case deviceRejected = "device-rejected"
        case postRebootCheckFailed = "post-reboot-check-failed"
        case authenticationFailed = "authentication-failed"
        case internalError = "internal-error"
    }

    public var kind: Kind {
        switch self {
        case .usage: return .usage
        case .image: return .image
        case .updateFile: return .updateFile
        case .fileUnreadable: return .fileUnreadable
        case .fileChanged: return .fileChanged
        case .precondition: return .precondition
        case .deviceUnreachable: return .deviceUnreachable
        case .transferInterrupted: return .transferInterrupted
        case .deviceRejected: return .deviceRejected
        case .postRebootCheckFailed: return .postRebootCheckFailed
        case .authenticationFailed: return .authenticationFailed
        case .internalError: return .internalError
        }
    }
}
