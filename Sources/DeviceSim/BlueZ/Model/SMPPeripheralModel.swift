import DFUCore
import Transport

/// The Zephyr device (`VirtualDevice`) as a `PeripheralModel`: one database (SMP, Battery, Device
/// Information), the SMP characteristic secured by `--security`, and the upload, reset and boot
/// reports `dfu sim` prints (`UploadWatch`).
public struct SMPPeripheralModel: PeripheralModel {
    public private(set) var device: VirtualDevice
    private var uploads = UploadWatch()

    public init(device: VirtualDevice) {
        self.device = device
    }

    public var databases: [[GATTService]] { [DeviceGATT.services] }
    public var currentDatabase: Int { 0 }
    public var advertisedService: ServiceID { DeviceGATT.smpService }
    public var advertisedName: String? { nil }
    public var securedCharacteristics: Set<CharacteristicID> { [DeviceGATT.smpCharacteristic] }
    public var identity: PeerIdentity { device.identity }
    public var nextDeadline: MonotonicInstant? { device.nextDeadline }
    public var bootCount: Int { device.boots.count }
    public var runningVersion: String { device.runningVersionText }

    public func read(_ characteristic: CharacteristicID) -> [UInt8]? { device.read(characteristic) }

    public func describe(_ value: [UInt8], on characteristic: CharacteristicID) -> String? {
        guard characteristic == DeviceGATT.smpCharacteristic, let header = try? SMPHeader(decoding: value) else { return nil }
        return "\(header)"
    }

    public mutating func handle(_ event: PeripheralModelEvent, now: MonotonicInstant) -> [PeripheralModelAction] {
        let actions: [VirtualDevice.Action]
        switch event {
        case .connected(let notificationSize):
            actions = device.handle(.connected(notificationSize: notificationSize), now: now)
        case .write(let characteristic, let bytes, _):
            // Only the SMP characteristic takes writes (the others are read-only).
            guard characteristic == DeviceGATT.smpCharacteristic else { return [.refuseWrite(.writeNotPermitted)] }
            actions = device.handle(.write(bytes), now: now)
        case .disconnected:
            actions = device.handle(.disconnected, now: now)
        case .tick:
            actions = device.handle(.tick, now: now)
        case .subscribed:
            return []
        }
        return translate(actions)
    }

    private mutating func translate(_ actions: [VirtualDevice.Action]) -> [PeripheralModelAction] {
        var out: [PeripheralModelAction] = []
        if let change = uploads.observe(device.server.uploadSession) { out.append(report(change)) }
        // Advertising stops before the link drops (reference §8): a central waiting to reconnect
        // must not find the device again while it is still in the bootloader.
        if actions.contains(where: { if case .rebooting = $0 { true } else { false } }) { out.append(.stopAdvertising) }
        for action in actions {
            switch action {
            case .notify(let bytes, let after, _):
                if let change = uploads.reply(bytes, session: device.server.uploadSession) { out.append(report(change)) }
                out.append(.notify(DeviceGATT.smpCharacteristic, bytes, after: after))
            case .dropLink(let cause):
                out.append(.dropLink(reason: cause == .reboot ? "the device resets" : "a disconnect fault"))
            case .rebooting(_, let bootReport):
                if let change = uploads.reset() { out.append(report(change)) }
                out.append(.report(.rebooting(bootReport)))
                out.append(.unregisterApplication)
            case .online:
                out.append(.report(.online(running: device.runningImage, boot: device.boots.count + 1)))
                out.append(.online)
            case .dropped(let drop):
                out.append(.report(.dropped(drop)))
            case .faultInjected(let fault):
                out.append(.report(.faultInjected(fault)))
            }
        }
        return out
    }

    private func report(_ change: UploadWatch.Change) -> PeripheralModelAction {
        switch change {
        case .started(let length): return .report(.uploadStarted(length: length))
        case .completed(let length):
            return .report(.uploadCompleted(length: length, image: device.server.bootloader.uploadedImage))
        case .lost(let offset, let length): return .report(.uploadLost(offset: offset, length: length))
        }
    }
}
