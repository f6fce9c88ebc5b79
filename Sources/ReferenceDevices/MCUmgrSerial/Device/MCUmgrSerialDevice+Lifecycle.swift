import Transport

extension MCUmgrSerialDevice {
    /// Runs every image up to `limit`, carrying out resets and boots as they fall due.
    mutating func advanceAll(to limit: MonotonicInstant) -> [SerialLineOutput] {
        var outputs: [SerialLineOutput] = []
        loop: while true {
            switch run {
            case .application(var application):
                outputs += application.run(until: limit, flash: &flash, counters: &counters)
                run = .application(application)
                if let reset = application.resetAt, reset <= limit {
                    clock = max(clock, reset)
                    outputs += startBoot(at: reset, recoveryButton: false)
                    continue loop
                }
            case .recovery(var recovery):
                outputs += recovery.run(until: limit, flash: &flash, counters: &counters)
                run = .recovery(recovery)
                if let reset = recovery.resetAt, reset <= limit {
                    clock = max(clock, reset)
                    outputs += startBoot(at: reset, recoveryButton: false)
                    continue loop
                }
            case .booting(let until, let target):
                if until <= limit {
                    clock = max(clock, until)
                    outputs += finishBoot(into: target, at: until)
                    continue loop
                }
            case .halted:
                break
            }
            break
        }
        clock = max(clock, limit)
        return outputs
    }

    /// A reset at `time`: the port goes away, and MCUboot's main.c decides what starts:
    /// - the recovery button (`CONFIG_BOOT_SERIAL_ENTRANCE_GPIO`) is checked before `boot_go`, so
    ///   nothing is swapped;
    /// - `boot_go` swaps as the trailers say (`Serial.bootGo`);
    /// - then a retained boot mode of 1 (`CONFIG_BOOT_SERIAL_BOOT_MODE`, io.c
    ///   `io_detect_boot_mode`, which clears it) enters recovery, after any swap;
    /// - without a valid primary image: recovery with `CONFIG_BOOT_SERIAL_NO_APPLICATION`, else
    ///   MCUboot stops ("Unable to find bootable image", `FIH_PANIC`).
    mutating func startBoot(at time: MonotonicInstant, recoveryButton: Bool) -> [SerialLineOutput] {
        counters.boots += 1
        var outputs: [SerialLineOutput] = [.detach]
        var duration = configuration.bootTime
        let target: BootTarget
        if recoveryButton, configuration.recoveryEnabled {
            target = .recovery
            outputs.append(.note("MCUboot: recovery button held, entering serial recovery"))
        } else {
            let result = Serial.bootGo(primary: &flash.primary, secondary: &flash.secondary)
            if result.erasedInvalidSecondary {
                counters.invalidSecondaryErased += 1
                outputs.append(.note("MCUboot: image in the secondary slot is not valid, erased"))
            }
            if result.swap != .none {
                counters.swaps += 1
                if result.swap == .revert { counters.reverts += 1 }
                duration += configuration.swapTime
                outputs.append(.note("MCUboot: swap type \(result.swap)"))
            }
            if configuration.recoveryEnabled, configuration.recoveryOnBootMode, flash.retainedBootMode == 1 {
                flash.retainedBootMode = nil
                target = .recovery
                outputs.append(.note("MCUboot: boot mode 1, staying in serial recovery"))
            } else if result.primary != nil {
                target = .application
            } else if configuration.recoveryEnabled, configuration.recoveryWhenNoApplication {
                target = .recovery
                outputs.append(.note("MCUboot: no bootable image, serial recovery"))
            } else {
                target = .halted
                outputs.append(.note("MCUboot: unable to find bootable image, stopped"))
            }
        }
        run = .booting(until: time + duration, into: target)
        return outputs
    }

    /// The image chosen at reset starts listening. A USB CDC ACM port comes back only if the image
    /// brings up USB (a stopped MCUboot does not).
    mutating func finishBoot(into target: BootTarget, at time: MonotonicInstant) -> [SerialLineOutput] {
        switch target {
        case .application:
            run = .application(Serial.ApplicationRun(configuration: configuration, now: time))
            var outputs: [SerialLineOutput] = [.attach]
            if let banner = configuration.noise.bootBanner { outputs.append(.transmit(Array(banner.utf8))) }
            return outputs
        case .recovery:
            counters.recoveryEntries += 1
            run = .recovery(Serial.RecoveryRun(configuration: configuration, now: time))
            return [.attach]
        case .halted:
            run = .halted
            return configuration.port == .uart ? [.attach] : []
        }
    }
}
