import DFUCore
import Transport

/// One simulated nRF52 that runs either its application (buttonless DFU) or its secure bootloader,
/// as a sans-I/O value of the same shape as `VirtualDevice`. Entering DFU mode drops the link; the
/// bootloader then advertises at the application's address + 1 without carry under `DfuTarg` (or
/// the name set with buttonless `02`); after an application or bootloader update, an abort or the
/// inactivity timeout the application comes back at its own address; after a SoftDevice (alone or
/// with a bootloader) the bootloader comes back in DFU mode, where it was, to take the application.
///
/// - `.refuseWrite(error)`: answer the Write Request with this ATT error.
/// - `.notify(characteristic, bytes)`: a notification (an indication for the buttonless char).
/// - `.dropLink(flush:)`: close the connection, after what was queued went out when `flush`.
/// - `.offline(identity)`: stop advertising as `identity` (before the link drops).
/// - `.online(identity, name:)`: advertise as `identity` (from the `.tick` that ends a boot).
/// - `.bootloader(action)`: the bootloader's own actions, for diagnostics (drops, resets).
/// - `.answerDamaged(fault)`: a `cp_fault=` fault fired; the answer follows as it made it (or not).
public struct NordicVirtualDevice: Sendable {
    public enum Event: Sendable, Hashable {
        case connected
        case subscribed(CharacteristicID)
        case write(CharacteristicID, [UInt8], withResponse: Bool)
        case disconnected
        case tick
        /// Power removed and restored at once; `enterBootloader` as if the DFU button were held.
        case powerCycle(enterBootloader: Bool)
    }

    public enum Action: Sendable, Equatable {
        case refuseWrite(ATTError)
        case notify(CharacteristicID, [UInt8])
        case dropLink(flush: Bool)
        case offline(PeerIdentity)
        case online(PeerIdentity, name: String?)
        case bootloader(NordicBootloader.Action)
        case answerDamaged(NordicNotificationFault)
    }

    public enum Mode: Sendable {
        case application(NordicApplication)
        case bootloader(NordicBootloader)
        /// Reset; nothing answers until `until`, then `next` starts.
        case booting(until: MonotonicInstant, next: NordicBoot)
    }

    /// The bootloader's advertised name unless the app set another (`NRF_DFU_BLE_ADV_NAME`).
    public static let defaultBootloaderName = "DfuTarg"

    public let configuration: NordicDeviceConfiguration
    public private(set) var mode: Mode
    /// The settings page as of the last time the bootloader stopped (the running bootloader's
    /// `storedSettings` is newer while it runs).
    public private(set) var settings: NordicDFUSettings
    /// Every start so far, oldest first (not counting the first power-on).
    public private(set) var boots: [NordicBoot] = []
    private var connected = false
    private var batteryLevel: UInt8
    /// `configuration.notificationFaults` not yet fired, and the answers sent so far per op code.
    private var pendingNotificationFaults: [NordicNotificationFault]
    private var answers: [UInt8: Int] = [:]

    public init(configuration: NordicDeviceConfiguration) {
        self.configuration = configuration
        settings = NordicDFUSettings(appVersion: configuration.bootloader.appVersion,
                                     bootloaderVersion: configuration.bootloader.bootloaderVersion)
        batteryLevel = min(configuration.batteryLevel, 100)
        pendingNotificationFaults = configuration.notificationFaults
        mode = .application(NordicApplication(version: configuration.bootloader.appVersion, batteryLevel: batteryLevel,
                                              buttonless: configuration.buttonless, setName: configuration.setName))
    }

    /// A device in its bootloader from the start, at `now`: one powered up with its DFU button held,
    /// or a board whose only way in is its serial bootloader (the nRF52840 Dongle's). No boot is
    /// counted until its first reset.
    public init(configuration: NordicDeviceConfiguration, inBootloaderAt now: MonotonicInstant) {
        self.init(configuration: configuration)
        mode = .bootloader(NordicBootloader(configuration: configuration.bootloader, settings: settings, now: now))
    }

    public var applicationIdentity: PeerIdentity { configuration.identity }
    public var bootloaderIdentity: PeerIdentity {
        if configuration.buttonless.keepsAddress { return configuration.identity }
        switch configuration.bootloaderAddressing {
        case .incremented: return NordicAddress.bootloader(for: configuration.identity)
        case .own(let address): return address
        }
    }
    public var bootloaderName: String { settings.advertisedName ?? Self.defaultBootloaderName }

    /// The identity it advertises as now; nil while booting.
    public var currentIdentity: PeerIdentity? {
        switch mode {
        case .application: return applicationIdentity
        case .bootloader: return bootloaderIdentity
        case .booting: return nil
        }
    }

    /// The version the application runs (or will run when it starts again).
    public var applicationVersion: UInt32 { currentSettings.appVersion }

    /// The settings page now, the running bootloader's included.
    public var currentSettings: NordicDFUSettings {
        if case .bootloader(let bootloader) = mode { return bootloader.storedSettings }
        return settings
    }

    public var gattServices: [GATTService] {
        if case .bootloader = mode { return NordicDeviceGATT.bootloader }
        return NordicDeviceGATT.application(buttonless: configuration.buttonless)
    }

    public var nextDeadline: MonotonicInstant? {
        switch mode {
        case .application: return nil
        case .bootloader(let bootloader): return bootloader.nextDeadline
        case .booting(let until, _): return until
        }
    }

    public mutating func setBatteryLevel(_ level: UInt8) {
        batteryLevel = min(level, 100)
        if case .application(var app) = mode {
            app.batteryLevel = batteryLevel
            mode = .application(app)
        }
    }

    public func read(_ characteristic: CharacteristicID) -> [UInt8]? {
        if case .application(let app) = mode { return app.read(characteristic) }
        return nil
    }

    public mutating func handle(_ event: Event, now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        advance(to: now, into: &actions)
        switch (event, mode) {
        case (.tick, _):
            break
        case (.powerCycle(let enterBootloader), _):
            reset(now: now, next: NordicBoot(target: enterBootloader ? .bootloader : .application(version: currentSettings.appVersion),
                                             reason: .powerCycle(enterBootloader: enterBootloader)),
                  flush: false, into: &actions)
        case (_, .booting):
            // Not advertising: nobody is connected, nothing to answer.
            break
        case (.connected, .application(var app)):
            connected = true
            _ = app.handle(.connected)
            mode = .application(app)
        case (.disconnected, .application(var app)):
            guard connected else { break }
            connected = false
            _ = app.handle(.disconnected)
            mode = .application(app)
        case (.subscribed(let characteristic), .application(var app)):
            _ = app.handle(.subscribed(characteristic))
            mode = .application(app)
        case (.write(let characteristic, let bytes, _), .application(var app)):
            let appActions = app.handle(.write(characteristic, bytes))
            mode = .application(app)
            route(appActions, now: now, into: &actions)
        case (.connected, .bootloader(var bootloader)):
            connected = true
            route(bootloader.handle(.connected, now: now), now: now, into: &actions, bootloader: &bootloader)
        case (.disconnected, .bootloader(var bootloader)):
            guard connected else { break }
            connected = false
            route(bootloader.handle(.disconnected, now: now), now: now, into: &actions, bootloader: &bootloader)
        case (.subscribed(let characteristic), .bootloader(var bootloader)):
            guard characteristic == NordicDeviceGATT.controlPoint else { break }
            route(bootloader.handle(.subscribed, now: now), now: now, into: &actions, bootloader: &bootloader)
        case (.write(let characteristic, let bytes, let withResponse), .bootloader(var bootloader)):
            let event: NordicBootloader.Event
            switch (characteristic, withResponse) {
            case (NordicDeviceGATT.controlPoint, true): event = .controlPointWrite(bytes)
            case (NordicDeviceGATT.packet, false): event = .packetWrite(bytes)
            default:
                // The CP takes only Write Requests, the Packet char only Write Commands (§1.1).
                if withResponse { actions.append(.refuseWrite(.writeNotPermitted)) }
                return actions
            }
            route(bootloader.handle(event, now: now), now: now, into: &actions, bootloader: &bootloader)
        }
        return actions
    }

    /// Runs what is due by `now`: the end of a boot, the bootloader's inactivity timeout.
    private mutating func advance(to now: MonotonicInstant, into actions: inout [Action]) {
        while let due = nextDeadline, due <= now {
            switch mode {
            case .booting(_, let next):
                start(next, at: due, into: &actions)
            case .bootloader(var bootloader):
                route(bootloader.handle(.tick, now: due), now: due, into: &actions, bootloader: &bootloader)
            case .application:
                return
            }
        }
    }

    private mutating func start(_ boot: NordicBoot, at time: MonotonicInstant, into actions: inout [Action]) {
        boots.append(boot)
        switch boot.target {
        case .application(let version):
            mode = .application(NordicApplication(version: version, batteryLevel: batteryLevel, buttonless: configuration.buttonless,
                                                  setName: configuration.setName))
            actions.append(.online(applicationIdentity, name: nil))
        case .bootloader:
            mode = .bootloader(NordicBootloader(configuration: configuration.bootloader, settings: settings, now: time,
                                                continuing: boot.reason.activatedSoftDevice))
            actions.append(.online(bootloaderIdentity, name: bootloaderName))
        }
    }

    private mutating func route(_ appActions: [NordicApplication.Action], now: MonotonicInstant, into actions: inout [Action]) {
        for action in appActions {
            switch action {
            case .refuseWrite(let error):
                actions.append(.refuseWrite(error))
            case .indicate(let bytes):
                actions.append(.notify(configuration.buttonless.characteristic, bytes))
            case .setBootloaderName(let name):
                settings.advertisedName = name
            case .enterBootloader:
                reset(now: now, next: NordicBoot(target: .bootloader, reason: .buttonless), flush: true, into: &actions)
            case .restart:
                reset(now: now, next: NordicBoot(target: .application(version: settings.appVersion), reason: .setNameWithoutSVCI),
                      flush: false, into: &actions)
            }
        }
    }

    /// Carries out the bootloader's actions and stores it back (or resets the device).
    private mutating func route(_ bootActions: [NordicBootloader.Action], now: MonotonicInstant, into actions: inout [Action],
                                bootloader: inout NordicBootloader) {
        mode = .bootloader(bootloader)
        for action in bootActions {
            switch action {
            case .refuseWrite(let error):
                actions.append(.refuseWrite(error))
            case .notify(let bytes):
                let (fault, sent) = damaged(bytes)
                if let fault { actions.append(.answerDamaged(fault)) }
                actions += sent.map { .notify(NordicDeviceGATT.controlPoint, $0) }
            case .dropped:
                actions.append(.bootloader(action))
            case .dropLink:
                // The bootloader already ended the link on its side; the transport's report of
                // the drop comes after and changes nothing.
                actions.append(.bootloader(action))
                if connected {
                    connected = false
                    actions.append(.dropLink(flush: true))
                }
            case .reset(let cause):
                actions.append(.bootloader(action))
                settings = bootloader.storedSettings
                let reason = NordicBoot.Reason.bootloaderReset(cause)
                // After a SoftDevice the bootloader stays in DFU mode for the application; after
                // anything else the (still valid) application starts (`NordicBoot.Reason`).
                let target: NordicBoot.Target = reason.activatedSoftDevice ? .bootloader : .application(version: settings.appVersion)
                reset(now: now, next: NordicBoot(target: target, reason: reason), flush: true, into: &actions)
            }
        }
    }

    /// A Control Point answer as a `cp_fault=` fault due at it sends it (else as it is): none,
    /// one or two notifications, and the fault that fired.
    private mutating func damaged(_ answer: [UInt8]) -> (fault: NordicNotificationFault?, notifications: [[UInt8]]) {
        guard answer.count >= 2, answer[0] == NordicBootloader.responseCode else { return (nil, [answer]) }
        let opcode = answer[1]
        answers[opcode, default: 0] += 1
        let count = answers[opcode, default: 0]
        guard let index = pendingNotificationFaults.firstIndex(where: { $0.opcode == opcode && $0.ordinal == count }) else {
            return (nil, [answer])
        }
        let fault = pendingNotificationFaults.remove(at: index)
        return (fault, fault.apply(to: answer))
    }

    /// The device resets: it stops advertising, the link drops (after what was queued, when
    /// `flush`), RAM goes, and `next` starts after the boot time.
    private mutating func reset(now: MonotonicInstant, next: NordicBoot, flush: Bool, into actions: inout [Action]) {
        if case .bootloader(let bootloader) = mode { settings = bootloader.storedSettings }
        if let identity = currentIdentity { actions.append(.offline(identity)) }
        if connected {
            connected = false
            actions.append(.dropLink(flush: flush))
        }
        mode = .booting(until: now.advanced(by: configuration.bootTime), next: next)
    }
}
