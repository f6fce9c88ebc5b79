import Transport

/// How a buttonless request ended (`NordicSession.buttonless`).
public enum NordicButtonlessOutcome: Sendable, Equatable {
    /// The application indicated this status.
    case answered(NordicButtonless.Status)
    /// The link dropped first: for "enter bootloader" a device that reset before its indication
    /// got out, which Android's library also counts as success (§1.2).
    case linkLost
    case writeFailed(LinkError)
    case timedOut
}
