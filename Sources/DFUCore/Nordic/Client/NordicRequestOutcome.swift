import Transport

/// How one Control Point request outside a transfer ended (`NordicSession.request`).
public enum NordicRequestOutcome: Sendable, Equatable {
    case answered(NordicResponse)
    /// A notification came that is not an answer to the request (what it was instead).
    case garbled(String)
    case linkLost
    case writeFailed(LinkError)
    case timedOut
}
