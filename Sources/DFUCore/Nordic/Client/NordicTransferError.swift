import Transport

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
    /// Execute of the init packet was refused: signature, versions, hardware, SoftDevice, space
    /// (`isOutOfSpace`).
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
        case .initPacketRejected(let error) where isOutOfSpace:
            return Self.noRoom(error, kind: nil, size: nil)
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
            return "the bootloader did not answer \(waitingFor) within \(after). Check that it is in range and in DFU mode."
        case .retriesExhausted(let object, let attempts):
            return "\(object) failed \(attempts) times (lost, reordered or corrupted packets). Move the device closer, use a "
                + "lower PRN value, then retry; with BlueZ, several ATT bearers (EATT) reorder writes: Channels=1 in the "
                + "[GATT] section of /etc/bluetooth/main.conf avoids it."
        case .linkNotRestored(let after):
            return "the Bluetooth link was lost and not restored within \(after). Bring the device within range."
        case .cancelled:
            return "the run was cancelled."
        case .localProtocolViolation(let event, let state):
            return "internal error: the Nordic transfer got \(event) while \(state). This is a bug in dfu; please report it."
        }
    }

    /// The init packet was refused because the update does not fit the device's flash. The nRF5 SDK
    /// (15–17, `nrf_dfu_validation.c`) answers Execute(command) with INSUFFICIENT RESOURCES (0x04)
    /// when `update_data_addr_get` finds no room even with the old application given up
    /// (`nrf_dfu_cache_prepare`), or `update_data_size_get` finds a bootloader larger than its area.
    /// The extended INSUFFICIENT SPACE (0x0D) is defined there but never sent; it means the same.
    public var isOutOfSpace: Bool {
        guard case .initPacketRejected(let error) = self else { return false }
        return error.result == .insufficientResources || error.extended == .insufficientSpace
    }

    /// `description`, naming the image and its size when the bootloader had no room for it (its
    /// answer carries no sizes; the caller knows the package).
    public func description(kind: NordicImageKind, size: Int) -> String {
        guard case .initPacketRejected(let error) = self, isOutOfSpace else { return description }
        return Self.noRoom(error, kind: kind, size: size)
    }

    /// The words for `isOutOfSpace`. The free flash is the application area above the SoftDevice up
    /// to the pages the bootloader keeps for the application's data (`NRF_DFU_APP_DATA_AREA_SIZE`);
    /// the sizes are those of SDK 17.1's layouts (DeviceSim's `NordicChipLayout`).
    private static func noRoom(_ error: NordicRemoteError, kind: NordicImageKind?, size: Int?) -> String {
        let image = kind.map { "The \($0)" + (size.map { " (\($0) bytes)" } ?? "") } ?? "The image"
        var text = "the bootloader has no room for this update: \(error). \(image) "
            + "does not fit the device's free flash (the application area above the SoftDevice, less the pages kept "
            + "for the application's data). Make the image smaller, or use a device with more flash: with the nRF5 SDK "
            + "17.1 layout an update may take up to 316 KiB on an nRF52832 or nRF52833 and 824 KiB on an nRF52840"
        if kind == nil || kind == .bootloader || kind == .softdeviceBootloader {
            text += "; a bootloader must also fit its own area (24 KiB)"
        }
        return text + "."
    }
}
