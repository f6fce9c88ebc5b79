/// SMP's errors as `DFUError` and `FailureCause` carry them (`ProtocolError`).
extension SMPClientError: ProtocolErrorValue {}
extension ImageUploadError: ProtocolErrorValue {}
extension NCSPackageError: ProtocolErrorValue {}

extension FailureCause {
    /// An SMP request failed: refused by the device, timed out, the link lost, a protocol violation.
    public static func smpRequest(_ error: SMPClientError) -> FailureCause { .protocolFailure(ProtocolError(error)) }
    /// The SMP upload stopped.
    public static func smpUpload(_ error: ImageUploadError) -> FailureCause { .protocolFailure(ProtocolError(error)) }
}

extension DFUError {
    /// The nRF Connect SDK zip (or one of its images, or the key used to check them) is not
    /// acceptable (exit 3).
    public static func ncsPackage(_ error: NCSPackageError) -> DFUError { .updateFile(ProtocolError(error)) }
}
