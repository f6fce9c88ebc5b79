import DFUCore
import SerialTransport

/// What `dfu scan --serial` learned of one port: which probe was answered, that none was, or why
/// the port could not be asked. A port that cannot be opened is a row like any other, never the
/// end of the scan.
enum SerialPortAnswer: Sendable {
    /// `--no-probe`.
    case notProbed
    case answered(SerialProbe)
    case silent
    /// Another process holds the port (`SerialPortError.busy`).
    case busy(String)
    /// The user may not open the port; the group that may, when known.
    case permissionDenied(String, group: String?)
    /// Anything else (not a terminal, gone while listed, a system error, lost while asked): the
    /// few words for the table, and the sentence with what to do.
    case unusable(column: String, reason: String)

    /// Why the port could not be opened.
    init(_ error: SerialPortError) {
        switch error {
        case .busy: self = .busy(error.description)
        case .permissionDenied(_, let group): self = .permissionDenied(error.description, group: group)
        case .missing: self = .unusable(column: "gone (unplugged while listed)", reason: error.description)
        case .notATerminal: self = .unusable(column: "not a terminal", reason: error.description)
        case .unsupportedBaud: self = .unusable(column: "speed not supported", reason: error.description)
        case .system(_, let failure): self = .unusable(column: "unusable (\(failure))", reason: error.description)
        }
    }

    /// The group to join for a denied port: the node's own, else dialout (Debian, Ubuntu, Fedora).
    static func joinGroup(_ group: String?) -> String {
        guard let group, group != "root" else { return "dialout" }
        return group
    }

    /// The ANSWER column.
    var column: String {
        switch self {
        case .notProbed: return "-"
        case .answered(let probe): return probe.label
        case .silent: return "no answer"
        case .busy: return "busy (another process has it open)"
        case .permissionDenied(_, let group):
            let join = Self.joinGroup(group)
            return "permission denied (join the group '\(join)': sudo usermod -aG \(join) $USER, then log in again)"
        case .unusable(let column, _): return column
        }
    }

    /// The word the summary counts it under.
    var summaryWord: String {
        switch self {
        case .notProbed: return "not probed"
        case .answered(let probe): return probe.label
        case .silent: return "no answer"
        case .busy: return "busy"
        case .permissionDenied: return "permission denied"
        case .unusable: return "unusable"
        }
    }

    /// The JSON `answer`; nil when not probed.
    var jsonName: String? {
        switch self {
        case .notProbed: return nil
        case .answered(let probe): return probe.jsonName
        case .silent: return "no-answer"
        case .busy: return "busy"
        case .permissionDenied: return "permission-denied"
        case .unusable: return "unusable"
        }
    }

    /// The JSON `error`: why the port could not be asked, with what to do.
    var error: String? {
        switch self {
        case .notProbed, .answered, .silent: return nil
        case .busy(let reason), .permissionDenied(let reason, _), .unusable(_, let reason): return reason
        }
    }

    /// The protocol that answered.
    var protocolName: UpdateProtocolName? {
        guard case .answered(let probe) = self else { return nil }
        return probe.protocolName
    }
}
