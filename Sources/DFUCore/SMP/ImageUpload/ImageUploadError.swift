/// Why an upload stopped. Split by fault as everywhere in dfu: the input (`invalidJob`,
/// `packetTooSmall`), the device said no (`refused`, `imageMismatch`), the device broke the protocol
/// (`remoteProtocolViolation`), the device or link stopped answering (`timeout`,
/// `retriesExhausted`, `linkNotRestored`), or our own bug (`client`, `localProtocolViolation`).
public enum ImageUploadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The job or configuration cannot work; nothing was sent.
    case invalidJob(String)
    /// Packets this small cannot carry the upload (the first packet needs `needed` bytes).
    case packetTooSmall(packetSize: Int, needed: Int)
    /// The device answered an upload request with an error, e.g. `INVALID_IMAGE_DATA_OVERRUN` (31),
    /// `NO_FREE_SLOT` (9) or `INVALID_IMAGE_TOO_LARGE` (30). The device ended its session.
    case refused(SMPError, offset: UInt64)
    /// The device reported the whole image but its check against the SHA-256 failed (`match: false`).
    case imageMismatch
    /// The device broke the protocol: malformed reply, unknown sequence, impossible offset.
    case remoteProtocolViolation(SMPProtocolViolation)
    /// No answer for the data at `offset`, `attempts` times in a row.
    case timeout(offset: UInt64, attempts: Int)
    /// The device kept asking for `offset` again, or kept losing its session, `attempts` times.
    case retriesExhausted(offset: UInt64, attempts: Int)
    /// The device answered `MGMT_ERR_EBUSY` (rc 10) at `offset` `attempts` times, despite the waits.
    case deviceBusy(offset: UInt64, attempts: Int)
    /// The link went down and no new one came within the configured time.
    case linkNotRestored(after: Duration)
    /// On a link without a loss signal the device fell silent at `offset` and answered neither an
    /// echo nor the upload's resume packet for `after`.
    case deviceSilent(offset: UInt64, after: Duration)
    /// The SMP client failed for a reason that is not the device's (see `SMPClientError`).
    case client(SMPClientError)
    /// The caller fed an event the current state has no transition for; a bug in the driver.
    case localProtocolViolation(event: String, state: String)

    public var description: String {
        switch self {
        case .invalidJob(let reason):
            return "cannot upload: \(reason)."
        case .packetTooSmall(let packetSize, let needed):
            return "the device's \(packetSize)-byte SMP packets cannot carry the first upload chunk (\(needed) bytes needed). Connect with a larger MTU or enable MCUmgr reassembly on the device."
        case .refused(let error, let offset):
            return "the device refused the upload at byte \(offset): \(error)"
        case .imageMismatch:
            return "the device received the whole image but it does not match its SHA-256. Retry the upload; if it fails again, the link corrupts data."
        case .remoteProtocolViolation(let violation):
            return "\(violation). The device does not follow the SMP upload protocol; check its firmware."
        case .timeout(let offset, let attempts):
            return "the device did not answer the upload at byte \(offset) (\(attempts) attempts). Check that it is in range and powered, then retry; the upload resumes."
        case .retriesExhausted(let offset, let attempts):
            return "the device asked for byte \(offset) again \(attempts) times without progress. Check the device's logs (flash errors, reboots), then retry."
        case .deviceBusy(let offset, let attempts):
            return "the device stayed busy (MGMT_ERR_EBUSY) at byte \(offset) through \(attempts) attempts with growing waits. Let it finish what it is doing (another transfer, a flash operation), then retry; the upload resumes."
        case .linkNotRestored(let after):
            return "the Bluetooth link was lost and not restored within \(after). Bring the device within range and retry; the upload resumes."
        case .deviceSilent(let offset, let after):
            return "the device stopped answering at byte \(offset) and answered neither an echo nor the upload's resume packet within \(after). Check that it is powered and reachable, then retry; the upload resumes."
        case .client(let error):
            return error.description
        case .localProtocolViolation(let event, let state):
            return "internal error: upload got \(event) while \(state). This is a bug in dfu; please report it."
        }
    }
}

extension ImageUploadError {
    /// The client's failure as the upload reports it: the device's violations stay the device's.
    init(_ error: SMPClientError) {
        switch error {
        case .remoteProtocolViolation(let violation): self = .remoteProtocolViolation(violation)
        default: self = .client(error)
        }
    }
}
