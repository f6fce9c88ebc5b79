import Transport

extension DFUError {
    /// What a failed connect to `label` means for the user: exit 5 (cannot reach it, or the stack
    /// is unusable), or 9 when the device demands a secure link that could not be set up.
    public static func connectFailed(_ label: String, _ error: LinkError) -> DFUError {
        connectFailedWithoutCause(label, error).caused(by: .link(error))
    }

    private static func connectFailedWithoutCause(_ label: String, _ error: LinkError) -> DFUError {
        switch error {
        case .timeout:
            return .deviceUnreachable("could not connect to \(label) in time. Check that it is powered, advertising and in "
                                      + "range, then retry (or allow more time with --connect-timeout).")
        case .unavailable(let message):
            return .deviceUnreachable(message)
        case .security(let failure):
            return EngineFailure.security(failure, device: label)
        default:
            return .deviceUnreachable("could not connect to \(label): \(error)")
        }
    }
}
