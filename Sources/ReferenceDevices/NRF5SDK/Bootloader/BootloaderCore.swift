/// The bootloader's request handler and its RAM state (nrf_dfu_req_handler.c, nrf_dfu_validation.c).
/// It knows no transport: `BootloaderTransport` (BLE) turns writes into `DFURequest`s and answers
/// into notifications, `SerialDFUTransport` does the same with SLIP frames. `build` says where the
/// two kinds of bootloader binary differ. Flash is passed in, because it outlives this RAM state.
struct BootloaderCore: Sendable {
    let configuration: SDKDeviceConfiguration
    let build: BootloaderBuild
    /// `s_dfu_settings`.
    var settings: DFUSettings
    /// `m_valid_init_cmd_present` with `mp_init`: the accepted init command, if any.
    var validInit: InitCommand?
    /// `m_firmware_size_req`: the image size the accepted init command declares.
    var firmwareSize: UInt32 = 0
    /// The static `current_object` of `nrf_dfu_obj_op`: Write, Execute and CRC go to the object type
    /// the last Select or Create named (command at start; nil after an invalid type).
    var currentObject: SDKObjectType? = .command

    /// The bootloader starting from flash: `nrf_dfu_req_handler_init` re-accepts a stored init
    /// command (`nrf_dfu_validation_init`, then `nrf_dfu_validation_init_cmd_execute`).
    init(configuration: SDKDeviceConfiguration, flash: FlashStore, build: BootloaderBuild? = nil) {
        self.configuration = configuration
        self.build = build ?? .ble(configuration.sdkVersion)
        settings = flash.settings
        if settings.progress.commandSize != 0, let packet = InitPacketDecoder.decode(settings.initCommand),
           case .success(let size) = UpdateSpace(configuration: configuration).size(of: packet.command) {
            validInit = packet.command
            firmwareSize = size
        }
    }

    /// `NRF_DFU_EVT_TRANSPORT_DEACTIVATED` in SDK 17: `nrf_dfu_settings_reinit` reloads the settings
    /// from flash. The accepted init command, the image size and the selected object stay (they are
    /// other modules' RAM).
    mutating func reloadSettings(from flash: FlashStore) {
        settings = flash.settings
    }

    /// `nrf_dfu_req_handler_req_process`.
    mutating func process(_ request: DFURequest, flash: inout FlashStore) -> DFUOutcome {
        let op = request.opCode
        switch op {
        case DFUOpCode.protocolVersion, DFUOpCode.mtuGet, DFUOpCode.ping, DFUOpCode.hardwareVersion,
             DFUOpCode.firmwareVersion:
            // A reduced protocol does not know them (they fall to the default branch).
            guard !build.protocolReduced else {
                return DFUOutcome(DFUResponse(opCode: op, status: .failed(.opCodeNotSupported)))
            }
            return DFUOutcome(information(request))
        case DFUOpCode.setReceiptNotification:
            return DFUOutcome(DFUResponse(opCode: op, status: .success))
        case DFUOpCode.abort:
            // on_abort_request → NRF_DFU_EVT_DFU_ABORTED: the transport disconnects and the
            // bootloader resets. The settings backup it waits for equals the settings page, so the
            // reset comes before the answer would be sent: no answer.
            var outcome = DFUOutcome(nil)
            outcome.resets = true
            return outcome
        case DFUOpCode.create, DFUOpCode.select, DFUOpCode.write, DFUOpCode.execute, DFUOpCode.calculateChecksum:
            return objectOperation(request, flash: &flash)
        default:
            return DFUOutcome(DFUResponse(opCode: op, status: .failed(.opCodeNotSupported)))
        }
    }

    /// `nrf_dfu_obj_op`: Select and Create choose the object type; an unknown type answers 05.
    private mutating func objectOperation(_ request: DFURequest, flash: inout FlashStore) -> DFUOutcome {
        if request.opCode == DFUOpCode.select || request.opCode == DFUOpCode.create {
            currentObject = SDKObjectType(rawValue: request.objectType)
        }
        switch currentObject {
        case .command:
            return commandOperation(request, flash: &flash)
        case .data:
            return dataOperation(request, flash: &flash)
        case nil:
            // No handler runs, so a Write's buffer is not given back either.
            return DFUOutcome(DFUResponse(opCode: request.opCode, status: .failed(.invalidObject)))
        }
    }

    /// `nrf_dfu_command_req`.
    private mutating func commandOperation(_ request: DFURequest, flash: inout FlashStore) -> DFUOutcome {
        let op = request.opCode
        let progress = settings.progress
        let checksum = DFUResponse.Payload.checksum(offset: progress.commandOffset, crc: progress.commandCRC)
        switch op {
        case DFUOpCode.select:
            let maxSize = configuration.sdkVersion.initCommandMaxSize
            return DFUOutcome(DFUResponse(opCode: op, status: .success, payload: .select(
                maxSize: maxSize, offset: progress.commandOffset, crc: progress.commandCRC)))
        case DFUOpCode.create:
            // NRF_DFU_EVT_DFU_STARTED comes first, whatever the result.
            var outcome = DFUOutcome(DFUResponse(opCode: op, status: createCommand(size: request.objectSize)))
            outcome.restartsInactivityTimer = true
            return outcome
        case DFUOpCode.write:
            // nrf_dfu_validation_init_cmd_append; on_cmd_obj_write_request gives the buffer back
            // whatever the result.
            let count = UInt32(request.data.count)
            guard UInt64(count) + UInt64(progress.commandOffset) <= UInt64(progress.commandSize) else {
                var refused = DFUOutcome(DFUResponse(opCode: op, status: .failed(.invalidParameter)))
                refused.releasesWriteBuffer = true
                return refused
            }
            settings.initCommand += request.data
            settings.progress.commandOffset += count
            settings.progress.commandCRC = CRC32.update(progress.commandCRC, with: request.data)
            var outcome = DFUOutcome(DFUResponse(opCode: op, status: .success, payload: .checksum(
                offset: settings.progress.commandOffset, crc: settings.progress.commandCRC)))
            outcome.acceptedBytes = request.data.count
            outcome.releasesWriteBuffer = true
            return outcome
        case DFUOpCode.execute:
            let status = executeCommand(flash: &flash)
            var outcome = DFUOutcome(DFUResponse(opCode: op, status: status))
            if status.isSuccess { outcome.executed = .command }
            return outcome
        default:
            return DFUOutcome(DFUResponse(opCode: op, status: .success, payload: checksum))
        }
    }

    /// nrf_dfu_validation_init_cmd_create.
    private mutating func createCommand(size: UInt32) -> DFUStatus {
        guard size != 0 else { return .failed(.invalidParameter) }
        guard size <= configuration.sdkVersion.initCommandMaxSize else { return .failed(.insufficientResources) }
        validInit = nil
        settings.resetProgress()
        settings.progress.commandSize = size
        return .success
    }

    /// nrf_dfu_validation_init_cmd_execute, then (on_cmd_obj_execute_request) the settings written
    /// to flash.
    private mutating func executeCommand(flash: inout FlashStore) -> DFUStatus {
        let progress = settings.progress
        guard progress.commandOffset == progress.commandSize else { return .failed(.operationNotPermitted) }
        let space = UpdateSpace(configuration: configuration)
        if let command = validInit {
            // Already accepted: not checked again.
            guard case .success(let size) = space.size(of: command) else { return .extended(.initCommandInvalid) }
            firmwareSize = size
        } else {
            guard let packet = InitPacketDecoder.decode(settings.initCommand) else { return .failed(.invalidObject) }
            let status = accept(packet, space: space)
            guard status.isSuccess else {
                settings.resetProgress()
                return status
            }
        }
        if flash.image.count != Int(firmwareSize) {
            flash.image = [UInt8](repeating: 0xFF, count: Int(firmwareSize))
        }
        flash.settings = settings
        return .success
    }

    /// Signature and version checks, the image size, and room for it.
    private mutating func accept(_ packet: DecodedInitPacket, space: UpdateSpace) -> DFUStatus {
        let status = InitCommandValidator(configuration: configuration, settings: settings, bleStack: build.bleStack)
            .prevalidate(packet)
        guard status.isSuccess else { return status }
        let size: UInt32
        switch space.size(of: packet.command) {
        case .success(let value): size = value
        case .failure(let status): return status
        }
        if case .failure(let status) = space.prepare(size: size, type: packet.command.type ?? 0, settings: &settings) {
            return status
        }
        validInit = packet.command
        firmwareSize = size
        return .success
    }
}
