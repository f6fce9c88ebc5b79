import Transport

/// Writes while the application runs (ble_dfu.c `on_ctrlpt_write`, ble_dfu_unbonded.c).
extension SDKDevice {
    mutating func applicationWrite(_ characteristic: CharacteristicID, _ value: [UInt8], withResponse: Bool,
                                   now: MonotonicInstant) -> [SDKDeviceAction] {
        guard characteristic == SDKGATT.buttonless, withResponse,
              case .application(var service) = image else { return [] }
        guard value.count <= SDKGATT.controlPointMaximumLength else {
            return [.refuseWrite(.invalidAttributeValueLength)]
        }
        // The write is authorised only when indications are enabled on the characteristic.
        guard isSubscribed(SDKGATT.buttonless) else { return [.refuseWrite(SDKGATT.cccdImproperlyConfigured)] }
        let outcome = service.handle(value, nameStored: flash.bootloaderName != nil)
        image = .application(service)
        switch outcome {
        case .answer(let answer):
            return [.notify(answer, on: SDKGATT.buttonless)]
        case .answerAndEnterBootloader(let answer):
            // on_hvc: the reset waits for the indication's confirmation, taken here as its sending.
            return [.notify(answer, on: SDKGATT.buttonless)] + reset(now: now, intoBootloader: true)
        case .storeName(let name, let answer):
            flash.bootloaderName = name
            return [.notify(answer, on: SDKGATT.buttonless)]
        case .fault:
            return reset(now: now, intoBootloader: false)
        }
    }
}
