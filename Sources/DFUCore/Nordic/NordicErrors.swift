/// Nordic Secure DFU's errors as `DFUError` and `FailureCause` carry them (`ProtocolError`).
extension NordicTransferError: ProtocolErrorValue {}
extension NordicPackageError: ProtocolErrorValue {}

extension FailureCause {
    /// The Nordic Secure DFU transfer stopped.
    public static func nordicTransfer(_ error: NordicTransferError) -> FailureCause { .protocolFailure(ProtocolError(error)) }
}

extension DFUError {
    /// The Nordic DFU package (or the key used to check it) is not acceptable (exit 3).
    public static func package(_ error: NordicPackageError) -> DFUError { .updateFile(ProtocolError(error)) }
}
