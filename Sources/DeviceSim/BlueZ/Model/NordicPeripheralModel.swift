import DFUCore
import Transport

/// The simulated nRF52 (`NordicVirtualDevice`) as a `PeripheralModel`: two databases, the
/// application (buttonless DFU, Battery, Device Information) and the bootloader (Control Point and
/// Packet), both advertised with the 0xFE59 service, the bootloader under its own name.
///
/// Over BlueZ the bootloader keeps the adapter's address: a peripheral cannot change it on the rig
/// (nordic-secure-dfu.md §10.7), so the device's "address + 1" exists only in-process. A central
/// finds the bootloader at the same address, or by its name; or, served on a second adapter
/// (`--bootloader-adapter`), at that adapter's address, which no rule gives.
public struct NordicPeripheralModel: PeripheralModel {
    public private(set) var device: NordicVirtualDevice
    /// The index of the bootloader's database in `databases`.
    public static let bootloaderDatabase = 1

    public init(device: NordicVirtualDevice) {
        self.device = device
    }

    public var databases: [[GATTService]] {
        [NordicDeviceGATT.application(buttonless: device.configuration.buttonless), NordicDeviceGATT.bootloader]
    }
    public var currentDatabase: Int {
        if case .bootloader = device.mode { return Self.bootloaderDatabase }
        return 0
    }
    public var advertisedService: ServiceID { NordicDeviceGATT.service }
    public var advertisedName: String? {
        if case .bootloader = device.mode { return device.bootloaderName }
        return nil
    }
    public var securedCharacteristics: Set<CharacteristicID> { [] }
    public var identity: PeerIdentity { device.applicationIdentity }
    public var nextDeadline: MonotonicInstant? { device.nextDeadline }
    public var bootCount: Int { device.boots.count }
    public var runningVersion: String {
        switch device.mode {
        case .application:
            return "application \(NordicAppVersion.text(device.applicationVersion)) (fw_version \(device.applicationVersion))"
        case .bootloader: return "the bootloader (DFU mode)"
        case .booting: return "nothing yet (booting)"
        }
    }

    public func read(_ characteristic: CharacteristicID) -> [UInt8]? { device.read(characteristic) }

    public func describe(_ value: [UInt8], on characteristic: CharacteristicID) -> String? {
        switch characteristic {
        case NordicDeviceGATT.controlPoint: return "control point"
        case NordicDeviceGATT.packet: return "packet"
        case device.configuration.buttonless.characteristic: return "buttonless"
        default: return nil
        }
    }

    public mutating func handle(_ event: PeripheralModelEvent, now: MonotonicInstant) -> [PeripheralModelAction] {
        let actions: [NordicVirtualDevice.Action]
        switch event {
        case .connected: actions = device.handle(.connected, now: now)
        case .subscribed(let characteristic): actions = device.handle(.subscribed(characteristic), now: now)
        case .write(let characteristic, let bytes, let withResponse):
            actions = device.handle(.write(characteristic, bytes, withResponse: withResponse), now: now)
        case .disconnected: actions = device.handle(.disconnected, now: now)
        case .tick: actions = device.handle(.tick, now: now)
        }
        // The application is unregistered once the link is down (or at once when nobody was
        // connected), and before a boot in the same step registers the next one.
        var out: [PeripheralModelAction] = []
        var unregisterPending = false
        for action in actions {
            if unregisterPending, action.isOnline {
                out.append(.unregisterApplication)
                unregisterPending = false
            }
            out += translate(action)
            switch action {
            case .offline: unregisterPending = true
            case .dropLink where unregisterPending:
                out.append(.unregisterApplication)
                unregisterPending = false
            default: break
            }
        }
        if unregisterPending { out.append(.unregisterApplication) }
        return out
    }

    private func translate(_ action: NordicVirtualDevice.Action) -> [PeripheralModelAction] {
        switch action {
        case .refuseWrite(let error):
            return [.refuseWrite(error)]
        case .notify(let characteristic, let bytes):
            return [.notify(characteristic, bytes, after: .zero)]
        case .dropLink:
            // The outbox is ordered: what was queued (the buttonless answer) goes out first.
            if case .bootloader = device.mode { return [.dropLink(reason: "the bootloader closes the link (drop=)")] }
            return [.dropLink(reason: "the device resets")]
        case .offline:
            // The bootloader's own reset was already reported with its cause.
            if currentDatabase == 1 { return [.stopAdvertising] }
            return [.report(.lifecycle("resetting into the bootloader (buttonless DFU)")), .stopAdvertising]
        case .online:
            let what = currentDatabase == 1 ? "in its bootloader as \(device.bootloaderName)" : "running \(runningVersion)"
            return [.report(.lifecycle("up again (boot \(device.boots.count)) \(what)")), .online]
        case .bootloader(.dropped(let drop)):
            return [.report(.traffic("the bootloader dropped a packet: \(drop)"))]
        case .bootloader(.dropLink(let point)):
            return [.report(.lifecycle("the bootloader drops the link (drop=\(point))"))]
        case .bootloader(.reset(let cause)):
            return [.report(.lifecycle("the bootloader resets: \(Self.describe(cause))"))]
        case .bootloader(.notify), .bootloader(.refuseWrite):
            return []
        case .answerDamaged(let fault):
            return [.report(.lifecycle("fault injected: cp_fault=\(fault)"))]
        }
    }

    private static func describe(_ cause: NordicResetCause) -> String {
        switch cause {
        case .updated(let type, let version): return "\(String(describing: type).lowercased()) activated" + (version.map { " (fw_version \($0))" } ?? "")
        case .validationFailed(let result): return "the final check failed (\(result)); the old application boots"
        case .aborted: return "aborted by the central"
        case .inactivity: return "no DFU activity until the inactivity timeout"
        }
    }
}

private extension NordicVirtualDevice.Action {
    var isOnline: Bool {
        if case .online = self { return true }
        return false
    }
}
