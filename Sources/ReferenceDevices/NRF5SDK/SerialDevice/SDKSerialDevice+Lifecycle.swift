import Transport

/// Resets and boots of the serial device (nrf_bootloader.c `nrf_bootloader_init`,
/// `dfu_enter_check`).
extension SDKSerialDevice {
    /// The device resets at `now`: RAM is gone, the port goes (`detach`), and the next image comes up
    /// after `bootTime`. `intoBootloader` sets the GPREGRET DFU flag first.
    mutating func reset(at now: MonotonicInstant, intoBootloader: Bool) -> [SerialLineOutput] {
        counters.resets += 1
        runningApplicationVersion = nil
        if intoBootloader { dfuFlag = true }
        image = .booting(until: now.advanced(by: max(.zero, configuration.bootloader.bootTime)))
        return [.detach]
    }

    /// `nrf_bootloader_init`: activate a validated update, then stay in DFU mode when there is no
    /// valid application or DFU was asked for (the button at power-on, GPREGRET); otherwise start the
    /// application.
    mutating func boot(at now: MonotonicInstant) -> [SerialLineOutput] {
        counters.boots += 1
        if flash.activateUpdate() { counters.updatesActivated += 1 }
        let bootloader = configuration.bootloader
        guard flash.settings.bank0.code == .validApplication, !dfuFlag else {
            dfuFlag = false
            let timeout = bootloader.inactivityTimeout
            image = .bootloader(SerialBootloaderRun(
                core: BootloaderCore(configuration: bootloader, flash: flash, build: .serial),
                transport: SerialDFUTransport(variant: configuration.variant, receiveBuffers: configuration.receiveBuffers),
                idleSince: now, transmittingUntil: now,
                inactivityDeadline: timeout > .zero ? now.advanced(by: timeout) : nil))
            return [.note("the bootloader starts"), .attach]
        }
        runningApplicationVersion = flash.settings.applicationVersion
        switch configuration.application {
        case .silent:
            image = .application(reentersBootloaderAt: nil)
        case .reentersBootloader(let after):
            image = .application(reentersBootloaderAt: now.advanced(by: max(.zero, after)))
        }
        let note = SerialLineOutput.note("the application \(flash.settings.applicationVersion) starts")
        return configuration.applicationHasPort ? [note, .attach] : [note]
    }
}
