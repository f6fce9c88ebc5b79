import Transport

/// The typed error under a `DFUError`, by the layer it came from.
public enum FailureCause: Sendable, Equatable {
    /// Making or keeping the link failed (a security failure is `.link(.security(…))`).
    case link(LinkError)
    /// A link came up, but the device does not offer the protocol's GATT layout (what is missing).
    case layoutMissing(String)
    /// An SMP request failed: refused by the device, timed out, the link lost, a protocol violation.
    case smpRequest(SMPClientError)
    /// The SMP upload stopped.
    case smpUpload(ImageUploadError)
    /// The Nordic Secure DFU transfer stopped.
    case nordicTransfer(NordicTransferError)
}
