/// The request a link-drop fault waits for (`drop@request:state-write:2`): the Nth request of one
/// command the device receives, counted from its start across reconnections and resets, or for
/// uploads the one whose data ends the image (`request:upload:last`).
public struct SMPRequestPoint: Sendable, Hashable, CustomStringConvertible {
    public enum Ordinal: Sendable, Hashable {
        /// The Nth request of the command, from 1.
        case nth(Int)
        /// The upload request whose data reaches the session's `len` (uploads only).
        case last
    }

    public let command: SMPCommand
    public let ordinal: Ordinal

    public init?(command: SMPCommand, ordinal: Ordinal = .nth(1)) {
        switch ordinal {
        case .nth(let n): guard (1 ... Self.maximumOrdinal).contains(n) else { return nil }
        case .last: guard command == .imageUpload else { return nil }
        }
        self.command = command
        self.ordinal = ordinal
    }

    static let maximumOrdinal = 1_000_000

    /// `request:NAME`, `request:NAME:N` or `request:upload:last`.
    init?(_ text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2 ... 3).contains(parts.count), parts[0].lowercased() == "request",
              let command = SMPCommand(name: parts[1].lowercased()) else { return nil }
        var ordinal = Ordinal.nth(1)
        if parts.count == 3 {
            if parts[2].lowercased() == "last" {
                ordinal = .last
            } else {
                guard let n = Int(parts[2]) else { return nil }
                ordinal = .nth(n)
            }
        }
        self.init(command: command, ordinal: ordinal)
    }

    public var description: String {
        switch ordinal {
        case .nth(1): return "request:\(command.name)"
        case .nth(let n): return "request:\(command.name):\(n)"
        case .last: return "request:\(command.name):last"
        }
    }

    static let expected = "request:NAME, request:NAME:N (the Nth, from 1) or request:upload:last, NAME one of "
        + SMPCommand.allCases.map(\.name).joined(separator: ", ")
}

/// When a fault at a request closes the link (or resets the device), against the request it waits for.
public enum LinkDropMoment: Sendable, Hashable, CaseIterable {
    /// As the request arrives: the device never carries it out (`drop-before@`; the request is lost).
    case beforeHandling
    /// Once the device has carried it out, instead of answering (`drop@`; the answer is lost).
    case insteadOfAnswer
    /// Right after the answer went out (`drop-after@`).
    case afterAnswer

    /// The link-drop fault kind in the option syntax.
    public var kind: String {
        switch self {
        case .beforeHandling: return "drop-before"
        case .insteadOfAnswer: return "drop"
        case .afterAnswer: return "drop-after"
        }
    }

    /// The reset-at-a-request kind in the option syntax (`reboot-before`, `reboot`, `reboot-after`).
    public var rebootKind: String {
        switch self {
        case .beforeHandling: return "reboot-before"
        case .insteadOfAnswer: return "reboot"
        case .afterAnswer: return "reboot-after"
        }
    }
}
