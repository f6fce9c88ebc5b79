import Transport

/// A Zephyr application with the SMP serial transport, on MCUboot with serial recovery, as one
/// sans-I/O value on a serial line. Feed it bytes with the time they finished arriving, call
/// `advance(to:)` at `nextDeadline`, and carry out the outputs in order.
///
///     var device = MCUmgrSerialDevice(configuration: MCUmgrSerialConfiguration(initialImage: image))
///     var out = device.receive(frame, now: t)          // bytes in
///     out += device.advance(to: device.nextDeadline!)  // [.transmit(response lines)]
///
/// Bytes delivered together are taken as having arrived back to back at `baudRate`, the last one
/// at `now`, so work the device finishes between them happens in between (for MCUboot they also
/// make up one interrupt's batch). Each rule names the
/// Zephyr or MCUboot function it comes from; docs/reference-device-mcumgr-serial.md lists them.
public struct MCUmgrSerialDevice: SerialLineDevice {
    typealias Serial = MCUmgrSerial

    enum Run {
        case application(Serial.ApplicationRun)
        case recovery(Serial.RecoveryRun)
        /// Rebooting; at `until` the target image starts listening.
        case booting(until: MonotonicInstant, into: BootTarget)
        case halted
    }

    enum BootTarget: Equatable { case application, recovery, halted }

    public let configuration: MCUmgrSerialConfiguration
    var flash: Serial.DeviceFlash
    var run: Run
    /// The latest time the device has been told about.
    var clock: MonotonicInstant
    public internal(set) var counters = MCUmgrSerialCounters()

    /// The device at power-on at `now`: MCUboot boots the initial image (or stays in recovery, if
    /// `holdingRecoveryButton` and the GPIO entrance is modelled as pressed).
    public init(configuration: MCUmgrSerialConfiguration, now: MonotonicInstant = .zero, holdingRecoveryButton: Bool = false) {
        self.configuration = configuration
        var primary = Serial.FlashSlot(size: configuration.primarySlotSize, pageSize: configuration.flashPageSize)
        primary.write(Array(configuration.initialImage.prefix(configuration.primarySlotSize)), at: 0)
        let secondary = Serial.FlashSlot(size: configuration.secondarySlotSize, pageSize: configuration.flashPageSize)
        flash = Serial.DeviceFlash(primary: primary, secondary: secondary, retainedBootMode: nil)
        clock = now
        run = .halted
        _ = startBoot(at: now, recoveryButton: holdingRecoveryButton)
    }

    // MARK: SerialLineDevice

    public mutating func receive(_ bytes: [UInt8], now: MonotonicInstant) -> [SerialLineOutput] {
        var outputs: [SerialLineOutput] = []
        let byteTime = configuration.transmitTime(1)
        let first = now.advanced(by: .zero - byteTime * max(0, bytes.count - 1))
        // For MCUboot's serial adapter the bytes of one call are one interrupt's batch.
        var batchOpen = false
        for (index, byte) in bytes.enumerated() {
            let arrival = max(clock, first + byteTime * index)
            outputs += advanceAll(to: arrival)
            switch run {
            case .application(var application):
                application.clock = max(application.clock, arrival)
                outputs += application.receive(byte, counters: &counters)
                run = .application(application)
            case .recovery(var recovery):
                if !batchOpen {
                    recovery.receiver.beginInterrupt()
                    batchOpen = true
                }
                recovery.clock = max(recovery.clock, arrival)
                outputs += recovery.receive(byte, counters: &counters)
                run = .recovery(recovery)
            case .booting, .halted:
                continue  // lost while the device resets or stands still
            }
        }
        if batchOpen, case .recovery(var recovery) = run {
            recovery.receiver.endInterrupt()
            run = .recovery(recovery)
        }
        return outputs + advanceAll(to: max(clock, now))
    }

    public mutating func advance(to now: MonotonicInstant) -> [SerialLineOutput] {
        advanceAll(to: max(clock, now))
    }

    public var nextDeadline: MonotonicInstant? {
        switch run {
        case .application(let application):
            return [application.nextEvent, application.resetAt].compactMap { $0 }.min()
        case .recovery(let recovery):
            return [recovery.nextEvent, recovery.resetAt].compactMap { $0 }.min()
        case .booting(let until, _):
            return until
        case .halted:
            return nil
        }
    }

    // MARK: What a test can see

    public var mode: MCUmgrSerialMode {
        switch run {
        case .application: return .application
        case .recovery: return .recovery
        case .booting: return .booting
        case .halted: return .halted
        }
    }

    /// The version of the image in the primary slot, while the application runs.
    public var runningVersion: MCUbootImageVersion? {
        guard case .application = run else { return nil }
        return Serial.ImageHeader(flash.primary.bytes)?.version
    }

    /// False while the application runs a test image MCUboot would revert at the next reset
    /// (primary trailer: magic, copy_done, no image_ok).
    public var runningImageConfirmed: Bool {
        Serial.swapType(primary: flash.primary.trailer, secondary: flash.secondary.trailer) != .revert
    }

    /// The whole slot (0 primary, 1 secondary), erased bytes included.
    public func slotContents(_ slot: Int) -> [UInt8] { flash[slot]?.bytes ?? [] }

    /// The image in a slot, cut to header, body and TLVs, when MCUboot would accept it (hash only).
    public func validImage(inSlot slot: Int) -> [UInt8]? {
        guard let bytes = flash[slot]?.bytes, let image = Serial.bootValidate(bytes) else { return nil }
        return Array(bytes.prefix(image.totalSize))
    }

    /// Whether MCUboot would swap the secondary image in at the next reset (test or permanent).
    public var secondaryPending: Bool {
        let swap = Serial.swapType(primary: flash.primary.trailer, secondary: flash.secondary.trailer)
        return swap == .test || swap == .perm
    }

    /// The boot mode stored in retention memory (Zephyr `bootmode_set`), if any.
    public var retainedBootMode: UInt8? { flash.retainedBootMode }

    // MARK: Lifecycle

    /// The reset button (a cold reset at `now`), optionally with the recovery button held.
    public mutating func pressReset(now: MonotonicInstant, holdingRecoveryButton: Bool = false) -> [SerialLineOutput] {
        var outputs = advanceAll(to: max(clock, now))
        outputs += startBoot(at: clock, recoveryButton: holdingRecoveryButton)
        return outputs
    }
}
