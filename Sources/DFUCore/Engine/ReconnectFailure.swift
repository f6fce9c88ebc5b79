import Transport

/// Why making a link (`LinkAttempts`) gave up.
enum ReconnectFailure: Error, Sendable, Equatable {
    /// As the cause of the `DFUError` it leads to.
    var cause: FailureCause {
        switch self {
        case .link(let error): return .link(error)
        case .layoutMissing(let problem, _): return .layoutMissing(problem)
        }
    }

    /// No usable link before the deadline (the last error).
    case link(LinkError)
    /// A link came up but the device does not offer the protocol (a new image without it), and
    /// which other registered protocol it offers instead, if any.
    case layoutMissing(String, speaks: UpdateProtocolName?)
}

extension ReconnectFailure {
    /// What a first connect that failed this way means for the user (see `DFUError.connectFailed`).
    /// With `updating` (the file and its protocol), a device that speaks another protocol was
    /// handed the wrong file: the same usage error `sim:` and `udp:` devices get before connecting.
    func connectError(label: String, layout: any GATTLayout,
                      updating: (file: String, protocol: UpdateProtocolName)? = nil) -> DFUError {
        switch self {
        case .layoutMissing(let problem, let speaks):
            if let speaks, let updating {
                return .usage(WrongFile.message(file: "\(updating.file) is an update for \(updating.protocol)",
                                                device: label, speaks: speaks))
            }
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
        case .layoutMissing(let problem, _): return problem
        }
    }
}
