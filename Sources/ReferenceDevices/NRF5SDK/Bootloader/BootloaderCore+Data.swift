/// Data objects (nrf_dfu_req_handler.c `nrf_dfu_data_req` and its handlers). Offsets and CRCs run
/// over the whole image; `…Last` are the values at the end of the last executed object.
extension BootloaderCore {
    mutating func dataOperation(_ request: DFURequest, flash: inout FlashStore) -> DFUOutcome {
        let op = request.opCode
        switch op {
        case DFUOpCode.select:
            // on_data_obj_select_request: everything received, executed or not.
            let progress = settings.progress
            return DFUOutcome(DFUResponse(opCode: op, status: .success, payload: .select(
                maxSize: configuration.pageSize, offset: progress.imageOffset, crc: progress.imageCRC)))
        case DFUOpCode.create:
            return DFUOutcome(DFUResponse(opCode: op, status: createData(size: request.objectSize, flash: &flash)))
        case DFUOpCode.write:
            return writeData(request.data, flash: &flash)
        case DFUOpCode.execute:
            return executeData(flash: &flash)
        default:
            let progress = settings.progress
            return DFUOutcome(DFUResponse(opCode: op, status: .success,
                                          payload: .checksum(offset: progress.imageOffset, crc: progress.imageCRC)))
        }
    }

    /// on_data_obj_create_request: a new object starts at the end of the last executed one, so
    /// whatever an unexecuted object held is dropped.
    private mutating func createData(size: UInt32, flash: inout FlashStore) -> DFUStatus {
        guard validInit != nil else { return .failed(.operationNotPermitted) }
        guard size != 0 else { return .failed(.invalidParameter) }
        let last = settings.progress.imageOffsetLast
        let endsImage = UInt64(last) + UInt64(size) == UInt64(firmwareSize)
        guard size & (configuration.pageSize - 1) == 0 || endsImage else { return .failed(.invalidParameter) }
        guard size <= configuration.pageSize else { return .failed(.insufficientResources) }
        guard UInt64(last) + UInt64(size) <= UInt64(firmwareSize) else { return .failed(.operationNotPermitted) }
        settings.progress.dataObjectSize = size
        settings.progress.imageCRC = settings.progress.imageCRCLast
        settings.progress.imageOffset = last
        settings.writeOffset = last
        flash.erase(from: last, size: size, pageSize: configuration.pageSize)
        return .success
    }

    /// on_data_obj_write_request.
    private mutating func writeData(_ data: [UInt8], flash: inout FlashStore) -> DFUOutcome {
        let op = DFUOpCode.write
        guard validInit != nil else { return DFUOutcome(DFUResponse(opCode: op, status: .failed(.operationNotPermitted))) }
        let progress = settings.progress
        let inObject = progress.imageOffset &- progress.imageOffsetLast
        guard UInt64(data.count) + UInt64(inObject) <= UInt64(progress.dataObjectSize) else {
            return DFUOutcome(DFUResponse(opCode: op, status: .failed(.invalidParameter)))
        }
        flash.store(data, at: settings.writeOffset)
        let count = UInt32(data.count)
        settings.writeOffset &+= count
        settings.progress.imageOffset &+= count
        settings.progress.imageCRC = CRC32.update(progress.imageCRC, with: data)
        var outcome = DFUOutcome(DFUResponse(opCode: op, status: .success, payload: .checksum(
            offset: settings.progress.imageOffset, crc: settings.progress.imageCRC)))
        outcome.acceptedBytes = data.count
        // The flash write's completion frees the buffer (callback.write); the refusals above do not.
        outcome.releasesWriteBuffer = true
        return outcome
    }

    /// on_data_obj_execute_request and on_data_obj_execute_request_sched. An object already
    /// executed has nothing outstanding, so executing it again succeeds; an object created but not
    /// filled answers 08.
    private mutating func executeData(flash: inout FlashStore) -> DFUOutcome {
        let op = DFUOpCode.execute
        let progress = settings.progress
        guard progress.dataObjectSize == progress.imageOffset &- progress.imageOffsetLast else {
            return DFUOutcome(DFUResponse(opCode: op, status: .failed(.operationNotPermitted)))
        }
        settings.progress.dataObjectSize = 0
        settings.progress.imageCRCLast = progress.imageCRC
        settings.progress.imageOffsetLast = progress.imageOffset
        var outcome: DFUOutcome
        if progress.imageOffset == firmwareSize {
            // The whole image: validate, answer, write the settings, then reset (DFU completed).
            let status: DFUStatus
            if let command = validInit {
                let image = Array(flash.image.prefix(Int(firmwareSize)))
                status = PostValidator(configuration: configuration).validate(image, command: command, settings: &settings)
            } else {
                // Undefined in the SDK (it validates against a null init command): taken as a failed
                // validation, with the same reset.
                settings.invalidate(bank1: true)
                settings.resetProgress()
                status = .extended(.verificationFailed)
            }
            flash.settings = settings
            outcome = DFUOutcome(DFUResponse(opCode: op, status: status))
            outcome.resets = true
        } else {
            outcome = DFUOutcome(DFUResponse(opCode: op, status: .success))
            if configuration.saveProgressInFlash { flash.settings = settings }
        }
        outcome.executed = .data
        outcome.restartsInactivityTimer = true
        return outcome
    }
}
