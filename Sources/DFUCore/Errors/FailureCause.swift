import Transport

/// The typed error under a `DFUError`, by the layer it came from.
public enum FailureCause: Sendable, Equatable {
    /// Making or keeping the link failed (a security failure is `.link(.security(…))`).
    case link(LinkError)
    /// A link came up, but the device does not offer the protocol's GATT layout (what is missing).
    case layoutMissing(String)
    /// A protocol's request, upload or transfer failed: refused by the device, timed out, the link
    /// lost, a protocol violation; the protocol's own error (`FailureCause.smpRequest(_:)`,
    /// `.smpUpload(_:)`, `.nordicTransfer(_:)` build one).
    case protocolFailure(ProtocolError)
}
