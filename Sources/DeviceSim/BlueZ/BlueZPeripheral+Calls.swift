import DFUCore
import Transport

/// The methods bluetoothd calls on our objects: ReadValue, WriteValue, StartNotify and StopNotify
/// on characteristics, Release on the advertisement, the agent's requests.
extension BlueZPeripheral {
    /// Every exported method comes here, and is answered in the order the connection received it.
    func receive(_ call: DBusMethodCall) async throws -> [DBusValue] {
        if !order.isTurn(call.arrival) {
            await withCheckedContinuation { order.wait(call.arrival, $0) }
        }
        defer { order.finished(call.arrival)?.resume() }
        return try answer(call)
    }

    /// Whether the call numbered `arrival` waits for an earlier one (for tests).
    func isParked(arrival: UInt64) -> Bool {
        order.isWaiting(arrival)
    }

    private func answer(_ call: DBusMethodCall) throws -> [DBusValue] {
        if let agent, call.path == agent.path {
            do {
                let (reply, note) = try agent.answer(call)
                if let note { observer(.pairing(note)) }
                return reply
            } catch let refusal as PeripheralAgent.Refusal {
                if let note = refusal.note { observer(.pairing(note)) }
                throw refusal.dbusError
            }
        }
        if call.path == advertisement.path {
            // bluetoothd dropped the advertisement by itself (never after our own Unregister).
            if advertised {
                advertised = false
                observer(.advertisementReleased)
            }
            return []
        }
        guard let characteristic = application.characteristic(at: call.path) else {
            throw DBusError.remote(name: DBusErrorName.unknownObject, message: "no characteristic at \(call.path)")
        }
        switch call.member {
        case "ReadValue":
            return [.bytes(try read(characteristic.id, options: BlueZCallOptions(call.arguments.first)))]
        case "WriteValue":
            let bytes: [UInt8]
            do {
                bytes = try call.arguments.argument(0).asBytes()
            } catch {
                throw DBusError.remote(name: BlueZNames.Error.invalidArguments, message: "WriteValue takes (aya{sv})")
            }
            let options = try BlueZCallOptions(call.arguments.count > 1 ? call.arguments[1] : nil)
            try write(bytes, to: characteristic.id, options: options)
            return []
        case "StartNotify":
            notifying.insert(characteristic.id)
            return []
        case "StopNotify":
            notifying.remove(characteristic.id)
            return []
        default:
            throw DBusError.remote(name: BlueZNames.Error.notSupported, message: "\(call.member) is not supported")
        }
    }

    /// Battery Level and Firmware Revision, from `offset` (a long read continues with one).
    private func read(_ characteristic: CharacteristicID, options: BlueZCallOptions) throws -> [UInt8] {
        if let path = options.device { note(path, mtu: options.mtu) }
        guard let value = device.read(characteristic) else {
            throw DBusError.remote(name: BlueZNames.Error.notPermitted, message: "Read not permitted")
        }
        guard options.offset <= value.count else {
            throw DBusError.remote(name: BlueZNames.Error.invalidOffset, message: "Invalid offset")
        }
        observer(.read(characteristic, size: value.count - options.offset))
        return Array(value[options.offset...])
    }

    /// One Write Command on the SMP characteristic: to the device, if it comes from the central
    /// the device is connected to.
    private func write(_ bytes: [UInt8], to characteristic: CharacteristicID, options: BlueZCallOptions) throws {
        guard characteristic == DeviceGATT.smpCharacteristic else {
            throw DBusError.remote(name: BlueZNames.Error.notPermitted, message: "Write not permitted")
        }
        guard options.offset == 0 else {
            throw DBusError.remote(name: BlueZNames.Error.invalidOffset, message: "Invalid offset")
        }
        let path = options.device ?? ""
        note(path, mtu: options.mtu)
        guard case .deliver(let connectWith) = centrals.write(from: path, mtu: options.mtu) else { return }
        let now = clock.now
        var actions: [VirtualDevice.Action] = []
        if let size = connectWith { actions += device.handle(.connected(notificationSize: size), now: now) }
        observer(.written(size: bytes.count, header: try? SMPHeader(decoding: bytes)))
        actions += device.handle(.write(bytes), now: now)
        perform(actions)
    }

    /// A call from `path`: it may be the first sign of a central's link.
    private func note(_ path: String, mtu: Int?) {
        let before = centrals.current
        let learned = centrals.note(path, mtu: mtu)
        if before == nil, centrals.current?.path == path {
            observer(.centralConnected(BlueZPeripheralEvent.central(at: path)))
        }
        if let learned {
            observer(.mtu(BlueZPeripheralEvent.central(at: path), learned,
                          notificationSize: CentralTracker.notificationSize(mtu: learned)))
        }
    }
}
