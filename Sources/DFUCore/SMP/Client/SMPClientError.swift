/// Why one SMP request, or the whole client, failed. Split by fault as in h11: the device refused
/// (`refused`), the device misbehaved (`remoteProtocolViolation`), nothing came back (`timeout`),
/// the link went (`linkLost`), or our caller misused the core (`localProtocolViolation`,
/// `requestTooLarge`, `invalidBudget`, `noFreeSequence`, `busy`, `closed`), or our caller stopped
/// waiting (`cancelled`).
public enum SMPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device answered with an error: v1 `rc` or v2 `err`, with its name and `rsn`.
    case refused(SMPError)
    /// The device broke the protocol. Fatal for the client: after this nothing it says is trusted.
    case remoteProtocolViolation(SMPProtocolViolation)
    /// No complete answer before the request's deadline.
    case timeout(SMPRequestMessageSummary, after: Duration)
    /// The link went down before the answer came. The device may or may not have acted on it.
    case linkLost
    /// The encoded request does not fit the packet budget.
    case requestTooLarge(size: Int, limit: Int)
    /// The packet budget cannot carry SMP at all (see `SMPPacketBudget.problem`).
    case invalidBudget(String)
    /// All 256 sequence numbers are waiting for answers.
    case noFreeSequence
    /// Another operation (an upload) holds the client; one at a time.
    case busy
    /// The session was closed before the answer came.
    case closed
    /// The caller's task was cancelled (Ctrl-C) before the answer came; it stopped waiting.
    case cancelled
    /// The caller fed an event the current state has no transition for; a bug in the driver.
    case localProtocolViolation(event: String, state: String)

    public var description: String {
        switch self {
        case .refused(let error):
            return error.description
        case .remoteProtocolViolation(let violation):
            return "\(violation). The device does not follow the SMP protocol; check its firmware, then retry."
        case .timeout(let request, let after):
            return "the device did not answer \(request) within \(after). Check that it is in range and running MCUmgr, then retry."
        case .linkLost:
            return "the Bluetooth link went down before the device answered. Reconnect and retry."
        case .requestTooLarge(let size, let limit):
            return "a \(size)-byte SMP request does not fit the device's \(limit)-byte packets. This is a bug in dfu; please report it."
        case .invalidBudget(let reason):
            return "SMP cannot run over this link: \(reason). Reconnect with a larger MTU."
        case .noFreeSequence:
            return "256 SMP requests are already waiting for answers. This is a bug in dfu; please report it."
        case .busy:
            return "the SMP session is busy with an upload; wait for it to end. This is a bug in dfu; please report it."
        case .closed:
            return "the SMP session was closed before the device answered."
        case .cancelled:
            return "the request was cancelled before the device answered."
        case .localProtocolViolation(let event, let state):
            return "internal error: SMP client got \(event) while \(state). This is a bug in dfu; please report it."
        }
    }
}

/// Group, command and op of a request, for error messages (the body may hold image data).
public struct SMPRequestMessageSummary: Sendable, Hashable, CustomStringConvertible {
    public var op: SMPOp
    public var group: SMPGroup
    public var command: UInt8

    public init(op: SMPOp, group: SMPGroup, command: UInt8) {
        self.op = op
        self.group = group
        self.command = command
    }

    public var description: String { "the \(op) of group \(group) command \(command)" }
}
