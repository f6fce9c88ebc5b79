import Transport

/// Resets and boots (nrf_bootloader.c `nrf_bootloader_init`, `dfu_enter_check`, activation).
extension SDKDevice {
    /// The device resets: advertising stops, the link drops, RAM is gone; the next image comes up
    /// after `bootTime`. `intoBootloader` sets the GPREGRET DFU flag first.
    mutating func reset(now: MonotonicInstant, intoBootloader: Bool) -> [SDKDeviceAction] {
        counters.resets += 1
        var actions: [SDKDeviceAction] = []
        if let advertised = advertisement {
            actions.append(.stopAdvertising(advertised.identity))
            advertisement = nil
        }
        if var open = connection {
            if !open.closing { actions.append(.dropLink(.reset)) }
            open.closing = true
            open.endedByReset = true
            connection = open
        }
        if intoBootloader { dfuFlag = true }
        let until = now.advanced(by: max(.zero, configuration.bootTime))
        image = .booting(until: until)
        if until <= now { actions += boot(now: now) }
        return actions
    }

    /// `nrf_bootloader_init`: activate a validated update, then stay in DFU mode when there is no
    /// valid application or the DFU flag is set; otherwise erase the stored name
    /// (`nrf_dfu_settings_additional_erase`) and start the application.
    mutating func boot(now: MonotonicInstant) -> [SDKDeviceAction] {
        if flash.activateUpdate() { counters.updatesActivated += 1 }
        let applicationValid = flash.settings.bank0.code == .validApplication
        if !applicationValid || dfuFlag {
            dfuFlag = false
            let timeout = configuration.inactivityTimeout
            let deadline = timeout > .zero ? now.advanced(by: timeout) : nil
            image = .bootloader(BootloaderRun(core: BootloaderCore(configuration: configuration, flash: flash),
                                              inactivityDeadline: deadline))
            advertisement = SDKAdvertisement(identity: configuration.bootloaderIdentity, name: bootloaderName,
                                             serviceUUIDs: [SDKGATT.dfuService])
        } else {
            flash.bootloaderName = nil
            image = .application(ButtonlessApplication(support: configuration.buttonless))
            runningApplicationVersion = flash.settings.applicationVersion
            advertisement = applicationAdvertisement
        }
        return advertisement.map { [.startAdvertising($0)] } ?? []
    }
}
