import DBusBinding
import Transport

/// The remote GATT objects of a connected device (gatt-client.c, 5.66): exported after Connect's
/// reply and before ServicesResolved=true, under new paths on every connection (measured, §8),
/// kept while disconnected.
extension StandInCore {
    /// Services resolved: the previous connection's objects go, the link's services appear with
    /// handles that differ from the last connection's, then ServicesResolved=true.
    func resolveServices(_ id: UInt64) {
        guard let connection = connections[id], !connection.ready, let device = devices[connection.device] else { return }
        for path in device.gattPaths.reversed() {
            characteristics[path] = nil
            removeObject(path)
        }
        var paths: [String] = []
        var handle = 0x0010 + (device.connectionCount % 64) * 0x0100
        let mtu = DBusValue.uint16(UInt16(clamping: connection.link.parameters.attMTU))
        for service in connection.link.services {
            let servicePath = device.path + "/service" + StandInName.handle(handle)
            addObject(servicePath, [DBusExportedInterface(name: StandInName.gattService, properties: [
                "UUID": .string(service.id.uuid.description),
                "Device": .objectPath(device.path),
                "Primary": .bool(true),
                "Includes": .array(elementSignature: "o", []),
            ])])
            paths.append(servicePath)
            for characteristic in service.characteristics {
                let charPath = servicePath + "/char" + StandInName.handle(handle + 1)
                characteristics[charPath] = CharacteristicState(path: charPath, device: device.path, connection: id,
                                                                id: characteristic.id,
                                                                properties: characteristic.properties)
                addObject(charPath, [characteristicInterface(charPath, characteristic, service: servicePath, mtu: mtu)])
                paths.append(charPath)
                handle += 2
                if !characteristic.properties.isDisjoint(with: [.notify, .indicate]) {
                    let descPath = charPath + "/desc" + StandInName.handle(handle + 1)
                    addObject(descPath, [DBusExportedInterface(name: StandInName.gattDescriptor, properties: [
                        "UUID": .string(BluetoothUUID(short: 0x2902).description),
                        "Characteristic": .objectPath(charPath),
                    ])])
                    paths.append(descPath)
                    handle += 1
                }
            }
            handle += 1
        }
        devices[connection.device]?.gattPaths = paths
        connections[id]?.ready = true
        for waiter in connection.readyWaiters { waiter.resume(returning: true) }
        connections[id]?.readyWaiters = []
        setProperties(device.path, StandInName.device, ["ServicesResolved": .bool(true)])
    }

    private func characteristicInterface(_ path: String, _ characteristic: GATTCharacteristic, service: String,
                                         mtu: DBusValue) -> DBusExportedInterface {
        let flags: [(CharacteristicProperties, String)] = [
            (.read, "read"), (.writeWithoutResponse, "write-without-response"), (.write, "write"), (.notify, "notify"),
            (.indicate, "indicate"),
        ]
        var properties: [String: DBusValue] = [
            "UUID": .string(characteristic.id.uuid.description),
            "Service": .objectPath(service),
            "Flags": .strings(flags.filter { characteristic.properties.contains($0.0) }.map(\.1)),
            "MTU": mtu,
        ]
        // Notifying with either flag; NotifyAcquired only with notify: 5.66's AcquireNotify needs it.
        if !characteristic.properties.isDisjoint(with: [.notify, .indicate]) { properties["Notifying"] = .bool(false) }
        if characteristic.properties.contains(.notify) { properties["NotifyAcquired"] = .bool(false) }
        if characteristic.properties.contains(.writeWithoutResponse) { properties["WriteAcquired"] = .bool(false) }
        return DBusExportedInterface(name: StandInName.gattCharacteristic, methods: [
            "ReadValue": method(path, signature: "a{sv}") { core, call in try await core.readValue(path, call.arguments) },
            "WriteValue": method(path, signature: "aya{sv}") { core, call in
                try await core.writeValue(path, call.arguments)
            },
            "AcquireWrite": method(path, signature: "a{sv}") { core, _ in try await core.acquire(path, .write) },
            "AcquireNotify": method(path, signature: "a{sv}") { core, call in
                try await core.acquire(path, .notify, sender: call.sender)
            },
            "StartNotify": method(path, signature: "") { core, call in try await core.startNotify(path, sender: call.sender) },
            "StopNotify": method(path, signature: "") { core, call in try await core.stopNotify(path, sender: call.sender) },
        ], properties: properties)
    }

    /// The characteristic and its live connection; "Not connected" (gatt-client.c) otherwise.
    func live(_ path: String) throws -> (CharacteristicState, ConnectionState) {
        guard let characteristic = characteristics[path] else {
            throw DBusError.remote(name: DBusErrorName.unknownObject, message: "No such object \(path)")
        }
        guard let connection = connections[characteristic.connection] else {
            throw StandInError.failed("Not connected")
        }
        return (characteristic, connection)
    }

    /// gatt-client.c `parse_options`: "offset" must be `q`, "type" `s`; other keys ignored.
    func options(_ value: DBusValue?) throws -> (offset: UInt16, type: String?) {
        guard case .dict(_, _, let entries)? = value else { throw StandInError.invalidArguments }
        var offset: UInt16 = 0
        var type: String?
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let content) = entry.value else { continue }
            switch key.lowercased() {
            case "offset":
                guard case .uint16(let value) = content else { throw StandInError.invalidArguments }
                offset = value
            case "type":
                guard case .string(let value) = content else { throw StandInError.invalidArguments }
                type = value
            default: break
            }
        }
        return (offset, type)
    }

    /// A link failure during a GATT operation, as bluetoothd reports it.
    nonisolated static func gattError(_ error: LinkError, writing: Bool) -> DBusError {
        switch error {
        case .rejected(_, let att): return StandInError.gatt(att)
        case .notSupported: return StandInError.gatt(writing ? .writeNotPermitted : .readNotPermitted)
        case .payloadTooLarge: return StandInError.invalidArguments("Invalid Length")
        default: return StandInError.failed("Operation failed")
        }
    }

    func readValue(_ path: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        let offset = try options(arguments.first).offset
        try await secureForRequest(path)
        let (characteristic, connection) = try live(path)
        stats(connection.peripheral) { $0.reads += 1 }
        let task: Task<Result<[UInt8], DBusError>, Never>
        if let pending = characteristic.pendingRead {
            // A second read at the same offset joins the first; another offset is InProgress.
            guard pending.offset == offset else { throw StandInError.inProgress }
            task = pending.task
        } else {
            let link = connection.link
            let id = characteristic.id
            task = Task {
                do throws(LinkError) {
                    return .success(try await link.read(id))
                } catch {
                    return .failure(Self.gattError(error, writing: false))
                }
            }
            characteristics[path]?.pendingRead = (offset, task)
        }
        let result = await task.value
        if characteristics[path]?.pendingRead?.task == task { characteristics[path]?.pendingRead = nil }
        let value = try result.get()
        // A read caches the value: Value changes, as after a notification.
        setProperties(path, StandInName.gattCharacteristic, ["Value": .bytes(value)])
        return [.bytes(Array(value.dropFirst(Int(offset))))]
    }

    /// gatt-client.c `characteristic_write_value`.
    func writeValue(_ path: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        var (characteristic, connection) = try live(path)
        if characteristic.writeSocket != nil { throw StandInError.notPermitted("Write acquired") }
        if characteristic.requestInFlight { throw StandInError.inProgress }
        guard let value = try? arguments.argument(0).asBytes() else { throw StandInError.invalidArguments }
        let (offset, type) = try options(arguments.dropFirst().first)
        let properties = characteristic.properties
        let request = type.map { ["request", "reliable"].contains($0.lowercased()) }
            ?? properties.contains(.write)
        if request {
            try await secureForRequest(path)
            (characteristic, connection) = try live(path)
            if characteristic.requestInFlight { throw StandInError.inProgress }
            stats(connection.peripheral) { $0.writeRequests += 1 }
            characteristics[path]?.requestInFlight = true
            defer { characteristics[path]?.requestInFlight = false }
            let link = connection.link
            let id = characteristic.id
            let outcome: Result<Void, LinkError>
            do throws(LinkError) {
                try await link.write(value, to: id)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            if case .failure(let error) = outcome { throw Self.gattError(error, writing: true) }
            return []
        }
        let command = type.map { $0.lowercased() == "command" } ?? properties.contains(.writeWithoutResponse)
        guard command, offset == 0 else { throw StandInError.notSupported }
        // bt_gatt_client_write_without_response cannot encode a value over MTU − 3.
        guard value.count <= connection.link.parameters.attMTU - 3 else {
            throw StandInError.failed("Failed to initiate write")
        }
        stats(connection.peripheral) { $0.writeCommands += 1 }
        // Accepted, but the device drops a command on a link below its requirement (§9).
        if isInsecure(characteristic, connection) {
            stats(connection.peripheral) { $0.insecureWritesDropped += 1 }
            return []
        }
        connection.commands.enqueue(value, to: characteristic.id)
        return []
    }

    /// gatt-client.c `characteristic_start_notify`.
    func startNotify(_ path: String, sender: String) async throws -> [DBusValue] {
        guard let characteristic = characteristics[path] else {
            throw DBusError.remote(name: DBusErrorName.unknownObject, message: "No such object \(path)")
        }
        let connection = connections[characteristic.connection]
        stats(devices[characteristic.device]?.peripheral) { $0.startNotifyCalls += 1 }
        if connection?.disconnectRequested == true { throw StandInError.notConnected }
        if characteristic.notifySocket != nil { throw StandInError.notPermitted("Notify acquired") }
        // Indications arrive as PropertiesChanged(Value) too, confirmed by bluetoothd itself.
        guard !characteristic.properties.isDisjoint(with: [.notify, .indicate]) else { throw StandInError.notSupported }
        if characteristic.notifySessions.contains(sender) { return [] }
        // Not connected: success, the session would be armed on the next connection.
        guard connection != nil else {
            characteristics[path]?.notifySessions.insert(sender)
            return []
        }
        // The CCC write is a request: security is raised first, or the call fails.
        try await secureForRequest(path)
        guard let connection = connections[characteristic.connection] else { throw StandInError.failed("Not connected") }
        if characteristics[path]?.notifySessions.contains(sender) == true { return [] }
        characteristics[path]?.notifySessions.insert(sender)
        do throws(LinkError) {
            try await connection.link.subscribe(characteristic.id)
        } catch {
            characteristics[path]?.notifySessions.remove(sender)
            throw Self.gattError(error, writing: true)
        }
        if characteristics[path]?.notifying == false {
            characteristics[path]?.notifying = true
            setProperties(path, StandInName.gattCharacteristic, ["Notifying": .bool(true)])
        }
        return []
    }

    /// gatt-client.c `characteristic_stop_notify`.
    func stopNotify(_ path: String, sender: String) throws -> [DBusValue] {
        guard let characteristic = characteristics[path] else {
            throw DBusError.remote(name: DBusErrorName.unknownObject, message: "No such object \(path)")
        }
        if let socket = characteristic.notifySocket {
            socket.shutDown()
            characteristics[path]?.notifySocket = nil
            setProperties(path, StandInName.gattCharacteristic, ["NotifyAcquired": .bool(false)])
            return []
        }
        guard characteristics[path]?.notifySessions.remove(sender) != nil else {
            throw StandInError.failed("No notify session started")
        }
        updateNotifying(path)
        return []
    }

    /// Notifying goes false once no session is left.
    func updateNotifying(_ path: String) {
        guard let characteristic = characteristics[path], characteristic.notifying,
              characteristic.notifySessions.isEmpty else { return }
        characteristics[path]?.notifying = false
        setProperties(path, StandInName.gattCharacteristic, ["Notifying": .bool(false)])
    }

    /// A notification from the device: one datagram on the AcquireNotify fd (dropped if the
    /// socket is full, GC `notify_io_cb`), else PropertiesChanged(Value) for StartNotify sessions,
    /// even when the bytes did not change (GC `notify_cb`).
    func notification(_ id: UInt64, _ characteristic: CharacteristicID, _ bytes: [UInt8]) {
        guard let connection = connections[id],
              let path = characteristics.keys.sorted().first(where: {
                  characteristics[$0]?.connection == id && characteristics[$0]?.id == characteristic
              }),
              let state = characteristics[path] else { return }
        if let socket = state.notifySocket {
            if socket.send(bytes) { stats(connection.peripheral) { $0.fdNotifications += 1 } }
        } else if !state.notifySessions.isEmpty {
            stats(connection.peripheral) { $0.signalNotifications += 1 }
            setProperties(path, StandInName.gattCharacteristic, ["Value": .bytes(bytes)])
        }
    }
}
