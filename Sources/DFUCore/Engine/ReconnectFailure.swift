import Transport

/// Why making a link (`LinkAttempts`) gave up.
enum ReconnectFailure: Error, Sendable, Equatable {
    /// As the cause of the `DFUError` it leads to.
    var cause: FailureCause {
        switch self {
        case .link(let error): return .link(error)
        case .layoutMissing(let problem): return .layoutMissing(problem)
        }
    }

    /// No usable link before the deadline (the last error).
    case link(LinkError)
    /// A link came up but the device no longer offers the protocol (a new image without it).
    case layoutMissing(String)
}

extension ReconnectFailure {
    /// What a first connect that failed this way means for the user (see `DFUError.connectFailed`).
    func connectError(label: String, layout: any GATTLayout) -> DFUError {
        switch self {
        case .layoutMissing(let problem):
            return .deviceUnreachable("\(label) cannot be updated: \(problem). \(layout.missingHint)",
                                      cause: .layoutMissing(problem))
        case .link(let error):
            return DFUError.connectFailed(label, error)
        }
    }
}

extension ReconnectFailure: CustomStringConvertible {
    /// The reason in a few words, for a message that gives it in parentheses after saying what
    /// could not be reached ("… not found at …:EE:FF within 20 s (nothing answered in time)").
    var description: String {
        switch self {
        case .link(.timeout): return "nothing answered in time"
        case .link(let error):
            let text = error.description
            return text.hasSuffix(".") ? String(text.dropLast()) : text
        case .layoutMissing(let problem): return problem
        }
    }
}
