/// Why a Nordic Secure DFU transfer stopped, split by fault as everywhere in dfu: the input
/// (`invalidJob`, `initPacketTooLarge`), the device said no (`initPacketRejected`,
/// `validationFailed`, `refused`, `controlPointWriteRejected`), the device broke the protocol
/// (`remoteProtocolViolation`), the device or link stopped answering or kept failing (`timeout`,
/// `retriesExhausted`, `linkNotRestored`), or our own bug (`localProtocolViolation`).
public enum NordicTransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The init packet, firmware or configuration cannot work; nothing was sent.
    case invalidJob(String)
    /// The init packet does not fit the bootloader's command object.
    case initPacketTooLarge(size: Int, maxSize: UInt32)
    /// Execute of the init packet was refused: signature, versions, hardware, SoftDevice, space.
    case initPacketRejected(NordicRemoteError)
    /// The final Execute was refused: the image does not validate (e.g. VERIFICATION FAILED). The
    /// bootloader resets and boots the old application; start again from the application (§10.5).
    case validationFailed(NordicRemoteError)
    /// Any other request was refused.
    case refused(NordicRequest, NordicRemoteError)
    /// The link refused a Control Point write with this ATT error (0xFD: notifications not
    /// enabled; a BlueZ-served bootloader answers 0x80–0x9F instead, §10.6).
    case controlPointWriteRejected(attError: UInt8)
    case remoteProtocolViolation(NordicProtocolViolation)
    /// Nothing came within the response timeout while waiting for `waitingFor`.
    case timeout(waitingFor: String, after: Duration)
    /// One object failed `attempts` times (CRC mismatch, lost packets, missing PRN, lost link).
    case retriesExhausted(object: String, attempts: Int)
    /// The link went down and no new one came within the configured time.
    case linkNotRestored(after: Duration)
    /// The caller stopped the transfer (the task was cancelled: Ctrl-C); the bootloader keeps what
    /// it has, as after a lost link.
    case cancelled
    /// The driver fed an event the current state has no transition for: a bug in dfu.
    case localProtocolViolation(event: String, state: String)

    public var description: String {
        switch self {
        case .invalidJob(let reason):
            return "cannot start the Nordic DFU transfer: \(reason)."
        case .initPacketTooLarge(let size, let maxSize):
            return "the init packet (\(size) bytes) does not fit the bootloader's \(maxSize)-byte command object; the package was made for another bootloader."
        case .initPacketRejected(let error):
            return "the bootloader rejected the init packet: \(error). Check the package's signing key, versions, hardware version and SoftDevice requirement."
        case .validationFailed(let error):
            return "the bootloader received the whole firmware but rejected it: \(error). It resets to the old application; start the update again."
        case .refused(let request, let error):
            return "the bootloader refused \(request): \(error)."
        case .controlPointWriteRejected(let code):
            return "the bootloader refused a Control Point write (ATT error 0x\(hexDigits(code, width: 2))); notifications may be off or the GATT cache stale. Reconnect and retry."
        case .remoteProtocolViolation(let violation):
            return "\(violation). The device does not follow the Nordic Secure DFU protocol; check its bootloader."
        case .timeout(let waitingFor, let after):
            return "the bootloader did not answer \(waitingFor) within \(after). Check that it is in range and in DFU mode, then retry; the transfer resumes."
        case .retriesExhausted(let object, let attempts):
            return "\(object) failed \(attempts) times (lost, reordered or corrupted packets). Move the device closer, use a "
                + "lower PRN value, then retry; with BlueZ, several ATT bearers (EATT) reorder writes: Channels=1 in the "
                + "[GATT] section of /etc/bluetooth/main.conf avoids it."
        case .linkNotRestored(let after):
            return "the Bluetooth link was lost and not restored within \(after). Bring the device within range and retry; the transfer resumes."
        case .cancelled:
            return "the transfer was stopped. Run the same command again to continue from the bootloader's offset."
        case .localProtocolViolation(let event, let state):
            return "internal error: the Nordic transfer got \(event) while \(state). This is a bug in dfu; please report it."
        }
    }
}
