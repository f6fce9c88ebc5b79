import DFUCore
import Transport

/// The virtual MCUboot device as its serial line sees it, as one sans-I/O value: decoded packets in,
/// reply packets and what happened out. Either the application answers (`VirtualDevice`, the
/// Zephyr SMP server) or MCUboot's serial recovery does (`MCUbootSerialRecovery`, on the same
/// line and flash), and the boots between them follow MCUboot's `main.c`:
/// - power-up with the recovery button held (`startsInRecovery`): recovery, before any swap;
/// - the application's reset with `boot_mode: 1` (`BOOT_SERIAL_BOOT_MODE`): MCUboot boots as
///   usual (a pending swap happens) and then stays in recovery;
/// - the recovery's reset: MCUboot boots; if a primary slot holds no image it validates, it stays
///   in recovery (`BOOT_SERIAL_NO_APPLICATION`), else the application starts.
///
/// A line has no connection: the application is told `.connected` before the first packet and
/// after each reset, as over UDP. With `applicationSilent` the application has no SMP transport
/// on the line and ignores every packet.
///
/// Recovery models MCUboot in a swap or overwrite-only mode (`recoveryProblem`); for another
/// device it is never entered.
public struct SerialVirtualDevice: Sendable {
    public enum Output: Sendable, Hashable {
        /// One reply packet, to frame and write after `after`.
        case send([UInt8], after: Duration)
        /// The device resets now: replies not yet written are lost; a USB port vanishes.
        case resetting
        /// Up again after a reset: a USB port comes back.
        case online
        /// A `disconnect@` fault: a USB port goes and comes back at once.
        case linkGlitch
        /// The silent application ignored a packet (it may still log a line).
        case ignored(size: Int)
        /// For the log.
        case event(SerialServerEvent)
    }

    /// The application, its flash and boots (a copy of its state is what servers report).
    public private(set) var application: VirtualDevice
    /// MCUboot's serial recovery while it holds the device; nil while the application runs.
    public private(set) var recovery: MCUbootSerialRecovery?
    public let framing: SMPStreamFraming
    public let applicationSilent: Bool
    /// From when the recovery reads the line, after the boot that entered it.
    private var recoveryUpAt: MonotonicInstant?
    private let recoverySupported: Bool
    private var uploads = UploadWatch()

    /// `application` built with `framing: .datagram` (one packet per write).
    public init(application: VirtualDevice, framing: SMPStreamFraming, startsInRecovery: Bool = false,
                applicationSilent: Bool = false) {
        self.application = application
        self.framing = framing
        self.applicationSilent = applicationSilent
        recoverySupported = Self.recoveryProblem(for: application) == nil
        if recoverySupported {
            self.application.keepResetBootMode()
            if startsInRecovery {
                self.application.holdInRecovery()
                recovery = MCUbootSerialRecovery(framing: framing)
            }
        }
    }

    /// Why this device cannot have MCUboot's serial recovery, or nil if it can.
    public static func recoveryProblem(for device: VirtualDevice) -> String? {
        let boot = device.server.bootloader
        if boot.swapMode.hasEqualSlots {
            return "the serial recovery is modelled for MCUboot in swap or overwrite-only mode, not \(boot.swapMode)"
        }
        switch device.server.configuration.kind {
        case .mcuboot: return nil
        case .firmwareLoader: return "MCUboot in firmware loader mode has no serial recovery (MCUBOOT_SERIAL depends on !BOOT_FIRMWARE_LOADER)"
        case .suit: return "a SUIT device has no MCUboot serial recovery"
        }
    }

    /// Whether MCUboot's serial recovery holds the device.
    public var inRecovery: Bool { recovery != nil }

    /// Whether the device reads nothing now: it resets, or boots.
    public var isDown: Bool {
        if recovery != nil { return recoveryUpAt != nil }
        if case .booting = application.power { return true }
        return false
    }

    public var nextDeadline: MonotonicInstant? {
        guard let recovery else { return application.nextDeadline }
        return recoveryUpAt ?? recovery.nextDeadline
    }

    /// Time passes: replies completing, resets, the end of a boot.
    public mutating func tick(now: MonotonicInstant) -> [Output] {
        guard var recovery else { return route(application.handle(.tick, now: now), now: now) }
        var outputs: [Output] = []
        if let up = recoveryUpAt {
            guard up <= now else { return [] }
            recoveryUpAt = nil
            outputs += [.event(.recoveryOnline(boot: application.boots.count + 1)), .online]
        }
        let actions = application.withBootloader { recovery.tick(now: now, bootloader: &$0) }
        self.recovery = recovery
        return outputs + route(actions, now: now)
    }

    /// One packet decoded from the line.
    public mutating func receive(_ packet: [UInt8], now: MonotonicInstant) -> [Output] {
        var outputs = tick(now: now)
        if var recovery, recoveryUpAt == nil {
            let actions = application.withBootloader { recovery.receive(packet, now: now, bootloader: &$0) }
            self.recovery = recovery
            return outputs + route(actions, now: now)
        }
        guard recovery == nil, !isDown else { return outputs }
        if applicationSilent { return outputs + [.ignored(size: packet.count)] }
        var actions: [VirtualDevice.Action] = []
        if !application.isConnected { actions += application.handle(.connected(notificationSize: nil), now: now) }
        actions += application.handle(.write(packet), now: now)
        outputs += route(actions, now: now)
        return outputs
    }

    // MARK: - The application's actions

    private mutating func route(_ actions: [VirtualDevice.Action], now: MonotonicInstant, fromRecovery: Bool = false) -> [Output] {
        var outputs: [Output] = []
        if let change = uploads.observe(application.server.uploadSession) { outputs.append(.event(Self.event(change))) }
        for action in actions {
            switch action {
            case .notify(let bytes, let after, _):
                if let change = uploads.reply(bytes, session: application.server.uploadSession) {
                    outputs.append(.event(Self.event(change)))
                }
                outputs.append(.send(bytes, after: after))
            case .dropLink(let cause):
                // A UART has nothing to close; a `disconnect@` fault is a USB glitch.
                if cause != .reboot { outputs.append(.linkGlitch) }
            case .rebooting(let until, let report):
                outputs += rebooting(until: until, report, fromRecovery: fromRecovery)
            case .online:
                outputs += [.event(.online(running: application.runningImage, boot: application.boots.count + 1)), .online]
            case .dropped(let drop):
                outputs.append(.event(.dropped(drop)))
            case .faultInjected(let fault):
                outputs.append(.event(.faultInjected(fault)))
            }
        }
        return outputs
    }

    /// MCUboot ran (`boot_go`): the application starts at `until`, unless MCUboot stays in recovery.
    private mutating func rebooting(until: MonotonicInstant, _ report: BootReport, fromRecovery: Bool) -> [Output] {
        var outputs: [Output] = []
        if let change = uploads.reset() { outputs.append(.event(Self.event(change))) }
        var report = report
        var entry: SerialRecoveryEntry?
        if recoverySupported {
            if application.takeRecoveryBootMode() {
                entry = .bootMode
            } else if fromRecovery, let reason = primaryFailure() {
                entry = .noValidImage(reason: reason)
            }
        }
        // Nothing runs: the report names no image.
        if entry != nil { report.running = nil }
        outputs.append(.event(fromRecovery ? .rebootingFromRecovery(report) : .rebooting(report)))
        if let entry {
            application.holdInRecovery()
            recovery = MCUbootSerialRecovery(framing: framing)
            recoveryUpAt = until
            outputs.append(.event(.enteringRecovery(entry)))
        }
        outputs.append(.resetting)
        return outputs
    }

    /// Why MCUboot would not start from the primary slots (each image's), or nil if it would.
    private func primaryFailure() -> String? {
        let boot = application.server.bootloader
        for (index, pair) in boot.images.enumerated() {
            if let reason = pair.validationFailure(ofSlot: 0, key: boot.key, decryptionKey: boot.decryptionKey) {
                return boot.images.count > 1 ? "image \(index): \(reason)" : reason
            }
        }
        return nil
    }

    private static func event(_ change: UploadWatch.Change) -> SerialServerEvent {
        switch change {
        case .started(let length): return .uploadStarted(length: length)
        case .completed(let length): return .uploadCompleted(length: length)
        case .lost(let offset, let length): return .uploadLost(offset: offset, length: length)
        }
    }

    // MARK: - The recovery's actions

    private mutating func route(_ actions: [MCUbootSerialRecovery.Action], now: MonotonicInstant) -> [Output] {
        var outputs: [Output] = []
        for action in actions {
            switch action {
            case .respond(let bytes):
                outputs.append(.send(bytes, after: .zero))
            case .uploadStarted(let image, let length):
                outputs.append(.event(.recoveryUploadStarted(image: image, length: length)))
            case .uploadCompleted(let image, let length):
                let version = application.server.bootloader.images.indices.contains(image)
                    ? application.server.bootloader.images[image].primaryImage?.version : nil
                outputs.append(.event(.recoveryUploadCompleted(image: image, length: length, version: version)))
            case .dropped(let reason):
                outputs.append(.event(.inputDropped(reason)))
            case .reset:
                recovery = nil
                outputs += route(application.resetFromRecovery(at: now), now: now, fromRecovery: true)
            }
        }
        return outputs
    }
}
