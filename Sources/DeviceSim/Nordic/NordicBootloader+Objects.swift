import DFUCore
import Transport

/// The request handler's object rules (nordic-secure-dfu.md §3.1 with §10.1): Select, Create,
/// Write, CRC and Execute for the command object and the data objects.
extension NordicBootloader {
    static let commandType: UInt8 = 0x01
    static let dataType: UInt8 = 0x02

    /// The type byte of a Select or Create, which also picks the object later requests apply to.
    private mutating func pick(_ type: UInt8) -> CurrentObject {
        switch type {
        case Self.commandType: currentObject = .command
        case Self.dataType: currentObject = .data
        default: currentObject = .invalid
        }
        return currentObject
    }

    mutating func select(type: UInt8) -> Action {
        switch pick(type) {
        case .command:
            return respond(0x06, .success, payload: Self.le32(UInt32(configuration.sdk.commandObjectMaxSize))
                + Self.le32(UInt32(progress.commandOffset)) + Self.le32(progress.commandCRC))
        case .data:
            return respond(0x06, .success, payload: Self.le32(UInt32(NordicBootloaderConfiguration.dataObjectMaxSize))
                + Self.le32(UInt32(progress.imageOffset)) + Self.le32(progress.imageCRC))
        case .invalid:
            return respond(0x06, .invalidObject)
        }
    }

    mutating func create(type: UInt8, size: Int, now: MonotonicInstant) -> [Action] {
        switch pick(type) {
        case .command:
            // DFU_STARTED restarts the inactivity timer before the size is looked at.
            restartInactivityTimer(now)
            if size == 0 { return [respond(0x01, .invalidParameter)] }
            if size > configuration.sdk.commandObjectMaxSize { return [respond(0x01, .insufficientResources)] }
            // All progress goes, data included, and the init command is no longer valid.
            initCommandValid = false
            progress = NordicDFUProgress()
            progress.commandSize = size
            return [respond(0x01, .success)]
        case .data:
            return [respond(0x01, createData(size: size))]
        case .invalid:
            return [respond(0x01, .invalidObject)]
        }
    }

    private mutating func createData(size: Int) -> NordicDFUResult {
        let page = NordicBootloaderConfiguration.dataObjectMaxSize
        guard initCommandValid else { return .operationNotPermitted }
        guard size > 0 else { return .invalidParameter }
        // Only the object that ends the image may be shorter than a page.
        if size % page != 0, progress.imageOffsetLast + size != firmwareSizeRequired { return .invalidParameter }
        guard size <= page else { return .insufficientResources }
        guard progress.imageOffsetLast + size <= firmwareSizeRequired else { return .operationNotPermitted }
        // A (re-)created object starts again at the end of the last executed one.
        progress.imageOffset = progress.imageOffsetLast
        progress.imageCRC = progress.imageCRCLast
        progress.dataObjectSize = size
        return .success
    }

    /// A Packet write, applied to the current object.
    mutating func write(_ bytes: [UInt8]) -> WriteOutcome {
        switch currentObject {
        case .command:
            var outcome = WriteOutcome(result: .success)
            if bytes.count + progress.commandOffset > progress.commandSize {
                outcome.result = .invalidParameter
            } else {
                progress.initCommand += bytes
                var crc = CRC32(continuing: progress.commandCRC)
                crc.update(bytes)
                progress.commandCRC = crc.value
            }
            // The command's offset and CRC go into a receipt notification whatever the result.
            outcome.offset = UInt32(progress.commandOffset)
            outcome.crc = progress.commandCRC
            return outcome
        case .data:
            return writeData(bytes)
        case .invalid:
            return WriteOutcome(result: .invalidObject)
        }
    }

    private mutating func writeData(_ bytes: [UInt8]) -> WriteOutcome {
        guard initCommandValid else { return WriteOutcome(result: .operationNotPermitted) }
        guard bytes.count + progress.imageOffset - progress.imageOffsetLast <= progress.dataObjectSize else {
            return WriteOutcome(result: .invalidParameter)
        }
        // The flash store refuses it; the result stays success with offset and CRC left at zero.
        guard bytes.count % 4 == 0 else { return WriteOutcome(result: .success, dropped: true) }
        // Flash is written at once; only the progress waits for a settings write.
        let start = progress.imageOffset
        if storedSettings.bank.count < start + bytes.count {
            storedSettings.bank += Array(repeating: 0xFF, count: start + bytes.count - storedSettings.bank.count)
        }
        storedSettings.bank.replaceSubrange(start ..< start + bytes.count, with: bytes)
        progress.imageOffset += bytes.count
        var crc = CRC32(continuing: progress.imageCRC)
        crc.update(bytes)
        progress.imageCRC = crc.value
        return WriteOutcome(result: .success, offset: UInt32(progress.imageOffset), crc: progress.imageCRC)
    }

    func checksum() -> Action {
        switch currentObject {
        case .command:
            return respond(0x03, .success, payload: Self.le32(UInt32(progress.commandOffset)) + Self.le32(progress.commandCRC))
        case .data:
            return respond(0x03, .success, payload: Self.le32(UInt32(progress.imageOffset)) + Self.le32(progress.imageCRC))
        case .invalid:
            return respond(0x03, .invalidObject)
        }
    }

    mutating func execute(now: MonotonicInstant) -> [Action] {
        switch currentObject {
        case .command: return [respond(0x04, executeCommand())]
        case .data: return executeData(now: now)
        case .invalid: return [respond(0x04, .invalidObject)]
        }
    }

    private mutating func executeCommand() -> NordicDFUResult {
        guard progress.commandOffset == progress.commandSize else { return .operationNotPermitted }
        // Already validated: success without checking again, and (as every successful
        // Execute(command)) the settings are written, data progress included.
        if initCommandValid {
            writeSettings()
            return .success
        }
        firmwareSizeRequired = 0
        switch validator.validate(progress.initCommand, settings: storedSettings) {
        case .success(let passed):
            initCommandValid = true
            accepted = passed
            firmwareSizeRequired = passed.firmwareSize
            writeSettings()
            return .success
        case .failure(let refusal):
            if configuration.sdk.keepsInitCommandAfterRefusal {
                // SDK 15.0 marks the command valid once the versions pass, even if size or space fail.
                if let passed = refusal.versionsPassed {
                    initCommandValid = true
                    accepted = passed
                }
            } else {
                // SDK 16 and 17 reset the progress (`nrf_dfu_settings_progress_reset`): the init
                // command received so far is gone, and Select(command) reports offset 0.
                progress = NordicDFUProgress()
            }
            return refusal.result
        }
    }

    private mutating func executeData(now: MonotonicInstant) -> [Action] {
        // Also true of an object executed already (nothing received since): a second Execute
        // succeeds (§10.1).
        guard progress.dataObjectSize == progress.imageOffset - progress.imageOffsetLast else {
            return [respond(0x04, .operationNotPermitted)]
        }
        progress.dataObjectSize = 0
        progress.imageOffsetLast = progress.imageOffset
        progress.imageCRCLast = progress.imageCRC
        restartInactivityTimer(now)
        guard progress.imageOffset == firmwareSizeRequired else { return [respond(0x04, .success)] }
        return finish()
    }

    /// The whole image is in: check it, answer, store the settings and reset either way.
    private mutating func finish() -> [Action] {
        let image = storedSettings.bank.prefix(firmwareSizeRequired)
        let passed = accepted.map { validator.firmwareMatches(image, $0) } ?? false
        let result: NordicDFUResult = passed ? .success : .extended(.verificationFailed)
        let cause: NordicResetCause
        if passed, let accepted {
            // `postvalidate_app` stores app_version; `postvalidate_sd_bl` stores bootloader_version
            // when the update has a bootloader, and no version for a SoftDevice alone.
            switch accepted.type {
            case .application:
                if let version = accepted.fwVersion { storedSettings.appVersion = version }
            case .bootloader, .softdeviceBootloader:
                if let version = accepted.fwVersion { storedSettings.bootloaderVersion = version }
            default:
                break
            }
            cause = .updated(accepted.type, version: accepted.fwVersion)
        } else {
            cause = .validationFailed(result)
        }
        // Progress and init command are cleared whatever the outcome.
        progress = NordicDFUProgress()
        initCommandValid = false
        accepted = nil
        writeSettings()
        return [respond(0x04, result)] + reset(cause)
    }
}
