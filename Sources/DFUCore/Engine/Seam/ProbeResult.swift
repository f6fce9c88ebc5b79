/// The answer to `UpdateSession.probe`.
enum ProbeResult: Sendable, Equatable {
    /// The device answered (if only with an error): it is up.
    case answered
    /// No answer within the timeout.
    case silent
    /// The link reports the peer gone.
    case gone
    /// The probe failed in a way waiting cannot mend.
    case failed(DFUError)
}
