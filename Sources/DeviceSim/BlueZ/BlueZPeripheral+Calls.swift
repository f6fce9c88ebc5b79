import BlueZTransport
import DBusBinding
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
        if call.path == advertisementPath {
            // bluetoothd dropped the advertisement by itself (never after our own Unregister).
            if advertised {
                advertised = false
                observer(.advertisementReleased)
            }
            return []
        }
        // Only the registered database's objects answer: bluetoothd knows no other.
        guard let application = registeredApplication, let characteristic = application.characteristic(at: call.path) else {
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
            try write(bytes, to: characteristic, request: application.takesRequests(characteristic), options: options)
            return []
        case "StartNotify":
            notifying.insert(characteristic.id)
            // A device already told of this link learns of it now; otherwise at `.connected`.
            if centrals.current?.deviceConnected == true { perform(model.handle(.subscribed(characteristic.id), now: clock.now)) }
            return []
        case "Confirm":
            // An indication was confirmed; the model needs no more than that it was sent.
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
        guard let value = model.read(characteristic) else {
            throw DBusError.remote(name: BlueZNames.Error.notPermitted, message: "Read not permitted")
        }
        guard options.offset <= value.count else {
            throw DBusError.remote(name: BlueZNames.Error.invalidOffset, message: "Invalid offset")
        }
        observer(.read(characteristic, size: value.count - options.offset))
        return Array(value[options.offset...])
    }

    /// One write (a Write Command, or a Write Request when `request`): to the device, if it comes
    /// from the central the device is connected to. A refusal of a request is thrown back to
    /// bluetoothd as the D-Bus error it turns into that ATT error.
    private func write(_ bytes: [UInt8], to characteristic: PeripheralApplication.Characteristic, request: Bool,
                       options: BlueZCallOptions) throws {
        guard options.offset == 0 else {
            throw DBusError.remote(name: BlueZNames.Error.invalidOffset, message: "Invalid offset")
        }
        let path = options.device ?? ""
        note(path, mtu: options.mtu)
        guard case .deliver(let connectWith) = centrals.write(from: path, mtu: options.mtu) else { return }
        let now = clock.now
        var actions: [PeripheralModelAction] = []
        if let size = connectWith {
            actions += model.handle(.connected(notificationSize: size), now: now)
            // StartNotify may have come before the link was known: the device learns of it now.
            for subscribed in notifying.sorted(by: { $0.uuid.description < $1.uuid.description }) {
                actions += model.handle(.subscribed(subscribed), now: now)
            }
        }
        observer(.written(size: bytes.count, detail: model.describe(bytes, on: characteristic.id)))
        actions += model.handle(.write(characteristic.id, bytes, withResponse: request), now: now)
        perform(actions)
        if request, let refusal = actions.lazy.compactMap({ action -> ATTError? in
            if case .refuseWrite(let error) = action { return error }
            return nil
        }).first {
            throw PeripheralWriteRefusal.dbusError(for: refusal)
        }
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
