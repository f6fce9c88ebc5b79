import DBusBinding
import Synchronization
import Transport

/// AcquireWrite / AcquireNotify and the sockets they hand out (gatt-client.c 5.66
/// `characteristic_acquire_*`, `create_sock`, `sock_read`, `sock_hup`; bluez-dbus.md §1.5).
extension StandInCore {
    /// AcquireWrite / AcquireNotify (gatt-client.c `characteristic_acquire_*`, `create_sock`).
    func acquire(_ path: String, _ direction: AcquiredSocket.Direction, sender: String = "") async throws -> [DBusValue] {
        let (characteristic, connection) = try live(path)
        let peripheral = peripherals[connection.peripheral]
        let member: String
        switch direction {
        case .write:
            member = "AcquireWrite"
            stats(connection.peripheral) { $0.acquireWriteCalls += 1 }
            if characteristic.writeSocket != nil { throw StandInError.notPermitted("Write acquired") }
            guard characteristic.properties.contains(.writeWithoutResponse) else { throw StandInError.notSupported }
            if let refusal = peripheral?.spec.refuseAcquireWrite { throw StandInError.refusal(refusal, member: member) }
        case .notify:
            member = "AcquireNotify"
            stats(connection.peripheral) { $0.acquireNotifyCalls += 1 }
            if characteristic.notifySocket != nil { throw StandInError.notPermitted("Notify acquired") }
            if !characteristic.notifySessions.isEmpty { throw StandInError.inProgress }
            guard characteristic.properties.contains(.notify) else { throw StandInError.notSupported }
            if let refusal = peripheral?.spec.refuseAcquireNotify { throw StandInError.refusal(refusal, member: member) }
            if isInsecure(characteristic, connection) {
                stats(connection.peripheral) { $0.acquireNotifyWhileInsecure += 1 }
                await leaveUnanswered()
                throw StandInError.failed("Not connected")
            }
        }
        // Not ready yet (services resolving): the reply waits (GC `characteristic_ready`).
        guard await waitUntilReady(connection.id) else { throw StandInError.failed("Not connected") }
        if direction == .notify {
            do throws(LinkError) {
                try await connection.link.subscribe(characteristic.id)
            } catch {
                throw Self.gattError(error, writing: true)
            }
        }
        guard connections[connection.id] != nil, characteristics[path] != nil else {
            throw StandInError.failed("Not connected")
        }
        if direction == .write, characteristics[path]?.writeSocket != nil { throw StandInError.notPermitted("Write acquired") }
        if direction == .notify, characteristics[path]?.notifySocket != nil { throw StandInError.notPermitted("Notify acquired") }
        let id = connection.id
        let characteristicID = characteristic.id
        let holder = SocketHolder()
        let (socket, callerEnd): (AcquiredSocket, DBusUnixFD)
        do {
            (socket, callerEnd) = try AcquiredSocket.open(
                direction: direction,
                callerSendBuffer: direction == .write ? timing.writeSocketBuffer : nil,
                readPause: timing.socketReadPause,
                onDatagram: { [weak self] bytes in await self?.fdDatagram(id, characteristicID, bytes) },
                onClosed: { [weak self] in await self?.socketClosed(path, holder) })
        } catch {
            throw StandInError.failed("\(error)")
        }
        holder.socket = socket
        switch direction {
        case .write:
            characteristics[path]?.writeSocket = socket
            setProperties(path, StandInName.gattCharacteristic, ["WriteAcquired": .bool(true)])
        case .notify:
            characteristics[path]?.notifySocket = socket
            setProperties(path, StandInName.gattCharacteristic, ["NotifyAcquired": .bool(true)])
        }
        return [.unixFD(callerEnd), .uint16(UInt16(clamping: connection.link.parameters.attMTU))]
    }

    private func waitUntilReady(_ id: UInt64) async -> Bool {
        guard let connection = connections[id] else { return false }
        if connection.ready { return true }
        return await withCheckedContinuation { connections[id]?.readyWaiters.append($0) }
    }

    /// One AcquireWrite datagram: one Write Command (GC `sock_read`). Longer than MTU − 3 cannot
    /// be encoded and is lost without a word, as in bluetoothd.
    func fdDatagram(_ id: UInt64, _ characteristic: CharacteristicID, _ bytes: [UInt8]) async {
        guard let connection = connections[id] else { return }
        guard bytes.count <= connection.link.parameters.attMTU - 3 else {
            stats(connection.peripheral) { $0.fdWritesDropped += 1 }
            return
        }
        if let state = characteristics.values.first(where: { $0.connection == id && $0.id == characteristic }),
           isInsecure(state, connection) {
            stats(connection.peripheral) { $0.insecureWritesDropped += 1 }
            return
        }
        stats(connection.peripheral) { $0.fdWrites += 1 }
        await connection.commands.send(bytes, to: characteristic)
    }

    /// The caller closed its end (or we shut it down): the lock is released (GC `sock_hup`).
    func socketClosed(_ path: String, _ holder: SocketHolder) {
        guard let socket = holder.socket, let characteristic = characteristics[path] else { return }
        if characteristic.writeSocket === socket {
            characteristics[path]?.writeSocket = nil
            setProperties(path, StandInName.gattCharacteristic, ["WriteAcquired": .bool(false)])
        } else if characteristic.notifySocket === socket {
            characteristics[path]?.notifySocket = nil
            setProperties(path, StandInName.gattCharacteristic, ["NotifyAcquired": .bool(false)])
        }
    }
}

/// Lets an acquired socket's close callback name the socket it belongs to (the callback is made
/// before the socket exists).
final class SocketHolder: Sendable {
    private let value = Mutex<AcquiredSocket?>(nil)

    var socket: AcquiredSocket? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
