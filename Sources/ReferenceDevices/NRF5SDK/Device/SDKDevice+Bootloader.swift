import Transport

/// Writes while the bootloader runs (nrf_dfu_ble.c `on_rw_authorize_req`, `on_ctrl_pt_write`,
/// `on_write`), what their outcomes do, and the injected faults.
extension SDKDevice {
    mutating func bootloaderWrite(_ characteristic: CharacteristicID, _ value: [UInt8], withResponse: Bool,
                                  now: MonotonicInstant) -> [SDKDeviceAction] {
        guard case .bootloader(var run) = image else { return [] }
        let request: DFURequest
        switch characteristic {
        case SDKGATT.controlPoint where withResponse:
            guard value.count <= SDKGATT.controlPointMaximumLength else {
                return [.refuseWrite(.invalidAttributeValueLength)]
            }
            guard isSubscribed(SDKGATT.controlPoint) else { return [.refuseWrite(SDKGATT.cccdImproperlyConfigured)] }
            request = run.transport.request(fromControlPoint: value)
        case SDKGATT.packet where !withResponse:
            // The SoftDevice drops a write longer than the attribute's max_len (MAX_DFU_PKT_LEN).
            guard value.count <= configuration.maximumPacketLength else { return [] }
            request = .write(value)
        default:
            return []
        }
        let outcome = run.core.process(request, flash: &flash)
        counters.bytesReceived += outcome.acceptedBytes
        switch outcome.executed {
        case .command?: counters.commandObjectsExecuted += 1
        case .data?: counters.dataObjectsExecuted += 1
        case nil: break
        }
        if outcome.restartsInactivityTimer, configuration.inactivityTimeout > .zero {
            run.inactivityDeadline = now.advanced(by: configuration.inactivityTimeout)
        }
        var actions: [SDKDeviceAction] = []
        // sd_ble_gatts_hvx fails when notifications are off: the answer is lost.
        if let response = outcome.response, let bytes = run.transport.notification(for: response),
           isSubscribed(SDKGATT.controlPoint) {
            actions.append(.notify(bytes, on: SDKGATT.controlPoint))
        }
        let dropNow = faultDue(after: request, outcome: outcome, core: run.core)
        image = .bootloader(run)
        if outcome.resets { return actions + reset(now: now, intoBootloader: false) }
        if dropNow {
            counters.faultsInjected += 1
            connection?.closing = true
            actions.append(.dropLink(.fault))
        }
        return actions
    }

    /// Counts the requests the fault plan counts and says whether the link drops now.
    private mutating func faultDue(after request: DFURequest, outcome: DFUOutcome, core: BootloaderCore) -> Bool {
        let faults = configuration.faults
        var drop = false
        switch request.opCode {
        case DFUOpCode.create where request.objectType == SDKObjectType.data.rawValue:
            counters.dataCreatesAnswered += 1
            if outcome.response?.status == .success { counters.dataObjectsCreated += 1 }
            drop = faults.dropAfterCreate == counters.dataCreatesAnswered
        case DFUOpCode.execute:
            guard let type = core.currentObject else { break }
            let count = counters.executesAnswered[type, default: 0] + 1
            counters.executesAnswered[type] = count
            drop = type == faults.dropAfterExecuteOf && faults.dropAfterExecute == count
        case DFUOpCode.write:
            guard let cut = faults.dropInsideDataObject, !insideObjectCutFired, outcome.acceptedBytes > 0,
                  core.currentObject == .data, counters.dataObjectsCreated == cut.object else { break }
            let progress = core.settings.progress
            if progress.imageOffset &- progress.imageOffsetLast >= cut.bytes {
                insideObjectCutFired = true
                drop = true
            }
        default:
            break
        }
        return drop
    }
}
