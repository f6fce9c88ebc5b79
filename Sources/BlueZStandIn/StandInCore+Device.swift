import DBusBinding
import Transport

/// Device1 as bluetoothd 5.66 answers it for an LE device (device.c): Connect, Disconnect, and
/// the link's life: Connected, ServicesResolved, link loss, a device that moves to another address.
extension StandInCore {
    func deviceInterface(_ path: String, properties: [String: DBusValue]) -> DBusExportedInterface {
        DBusExportedInterface(name: StandInName.device, methods: [
            "Connect": method(path, signature: "") { core, _ in try await core.connect(path) },
            "Disconnect": method(path, signature: "") { core, _ in await core.disconnect(path) },
            "Pair": method(path, signature: "") { core, call in try await core.pair(path, sender: call.sender) },
            "CancelPairing": method(path, signature: "") { core, _ in try await core.cancelPairing(path) },
        ], properties: properties)
    }

    /// device.c `dev_connect` → `device_connect_le` → `att_connect_cb`: replies once the ATT
    /// channel is up; services resolve after the reply (`resolveServices`). `counted` false: the
    /// connection Device1.Pair makes itself (not a Connect call).
    func connect(_ path: String, counted: Bool = true) async throws -> [DBusValue] {
        guard let device = devices[path] else { throw StandInError.doesNotExist }
        if counted {
            stats(device.owner) {
                $0.connectCalls += 1
                $0.connectAddresses.append(device.address)
            }
        }
        guard adapters[device.adapter]?.powered == true else {
            // bt_io_connect fails on a down controller; device_connect_le returns -EIO
            // (inference from device.c; not measured).
            throw StandInError.failed("Input/output error")
        }
        if device.connection != nil { return [] }
        // A pending LE attempt: strerror(EALREADY).
        if device.pendingConnect != nil { throw StandInError.failed("Operation already in progress") }
        if let id = device.peripheral, let left = peripherals[id]?.connectFailuresLeft, left > 0,
           let message = peripherals[id]?.spec.connectFailureMessage {
            peripherals[id]?.connectFailuresLeft = left - 1
            throw StandInError.failed(message)
        }
        if let id = device.peripheral, let message = peripherals[id]?.stuckUntilRemoved {
            throw StandInError.failed(message)
        }
        let attempt = nextID()
        devices[path]?.pendingConnect = attempt
        let timeout = timing.connectAttemptTimeout
        let task: Task<Result<any Link, LinkError>, Never>
        if let id = device.peripheral, let peripheral = peripherals[id], peripheral.address == device.address,
           peripheral.advertising {
            let connector = peripheral.spec.connector
            let peer = peripheral.spec.peer
            let latency = timing.connectLatency
            task = Task {
                if latency > .zero { try? await Task.sleep(for: latency) }
                do throws(LinkError) {
                    return .success(try await connector.connect(to: peer, deadline: .now + timeout))
                } catch {
                    return .failure(error)
                }
            }
        } else {
            // Nobody answers at this address: the controller gives up after its timeout.
            task = Task {
                try? await Task.sleep(for: timeout)
                return .failure(.timeout)
            }
        }
        pendingConnectTasks[attempt] = task
        peakPendingConnects = max(peakPendingConnects, pendingConnectTasks.count)
        let outcome = await task.value
        pendingConnectTasks[attempt] = nil
        guard devices[path]?.pendingConnect == attempt, !stopped else {
            // Disconnect (or RemoveDevice) came first: device.c answers the pending Connect so.
            if case .success(let link) = outcome { await link.disconnect() }
            throw StandInError.failed("br-connection-canceled")
        }
        devices[path]?.pendingConnect = nil
        switch outcome {
        case .failure:
            throw StandInError.failed("le-connection-abort-by-local")
        case .success(let link):
            guard let id = device.peripheral else {
                await link.disconnect()
                throw StandInError.failed("le-connection-abort-by-local")
            }
            if bonds[path] != nil, peripherals[id]?.spec.bondLost == true {
                let failures = statistics[id]?.encryptionFailures ?? 0
                stats(id) { $0.encryptionFailures += 1 }
                if failures.isMultiple(of: 2) { try await failEncryption(path, link: link) }
                // Every other time the socket error is ECONNABORTED, which att_connect_cb answers
                // with success (seen on the rig): the link is up, and drops before services resolve.
                linkUp(path, peripheral: id, link: link, securityFails: true)
                await outbox.flush()
                return []
            }
            linkUp(path, peripheral: id, link: link)
            await outbox.flush()
            return []
        }
    }

    /// A bonded device that lost its bond: device.c `device_connect_le` asks for an encrypted ATT
    /// channel because an LTK is stored; the device has no key for it (LL "PIN or Key Missing"),
    /// the kernel drops the link and `att_connect_cb` answers Connect with
    /// `btd_error_le_conn_from_errno(ECONNABORTED)`. Connected flips true then false; Paired and
    /// Bonded stay true (nothing removes the stored key).
    private func failEncryption(_ path: String, link: any Link) async throws {
        setProperties(path, StandInName.device, ["Connected": .bool(true)])
        await outbox.flush()
        await link.disconnect()
        setProperties(path, StandInName.device, ["Connected": .bool(false)])
        await outbox.flush()
        throw StandInError.failed("le-connection-abort-by-local")
    }

    /// `securityFails`: the encryption fails a moment later and the kernel drops the link
    /// (`failEncryption`'s other outcome), before the services resolve.
    private func linkUp(_ path: String, peripheral: Int, link: any Link, securityFails: Bool = false) {
        let id = nextID()
        connections[id] = ConnectionState(id: id, device: path, peripheral: peripheral, link: link,
                                          commands: StandInCommandQueue(link: link))
        // A bonded device is encrypted with its stored LTK at connect, no agent involved (§9).
        connections[id]?.security = bonds[path] ?? .none
        devices[path]?.connection = id
        devices[path]?.connectionCount += 1
        let lingering = characteristics.values.filter { $0.device == path }.map(\.notifySessions.count).reduce(0, +)
        stats(peripheral) {
            $0.connections += 1
            $0.notifySessionsRearmed += lingering
        }
        let unreported = peripherals[peripheral]?.spec.connectedUnreported == true
        setProperties(path, StandInName.device, ["Connected": .bool(true)], signal: !unreported)
        Task { [weak self] in
            for await event in link.events {
                if case .notification(let characteristic, let bytes) = event.kind {
                    await self?.notification(id, characteristic, bytes)
                }
            }
            await self?.linkDown(id)
        }
        if securityFails {
            // "A moment later": after Connected=true has gone out (on the rig the encryption
            // fails some ms after the link is up), so a client sees the link come and go.
            Task {
                try? await Task.sleep(for: .milliseconds(100))
                await link.disconnect()
            }
            return
        }
        let delay = timing.servicesResolveDelay
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            await self?.resolveServices(id)
        }
    }

    /// device.c `dev_disconnect`: a pending Connect is answered `br-connection-canceled`; not
    /// connected is success; else the reply waits until the link is down.
    func disconnect(_ path: String, counted: Bool = true) async -> [DBusValue] {
        guard let device = devices[path] else { return [] }
        if counted { stats(device.owner) { $0.disconnectCalls += 1 } }
        if let attempt = device.pendingConnect {
            devices[path]?.pendingConnect = nil
            pendingConnectTasks[attempt]?.cancel()
        }
        guard let id = device.connection, let link = connections[id]?.link else { return [] }
        connections[id]?.disconnectRequested = true
        await withCheckedContinuation { (down: CheckedContinuation<Void, Never>) in
            connections[id]?.downWaiters.append(down)
            Task { await link.disconnect() }
        }
        await outbox.flush()
        return []
    }

    /// The link ended, whoever ended it. device.c `device_remove_connection`: ServicesResolved and
    /// Connected go false in ONE PropertiesChanged (measured, §8); gatt-client.c
    /// `btd_gatt_client_disconnected` shuts every acquired socket (HUP/EOF at the caller). GATT
    /// objects stay exported; their methods answer "Not connected".
    func linkDown(_ id: UInt64) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        connection.commands.finish()
        let path = connection.device
        devices[path]?.connection = nil
        let delay = connection.disconnectRequested ? .zero : timing.linkLossSignalDelay
        if delay == .zero {
            announceLinkDown(path)
        } else {
            Task { [weak self] in
                try? await Task.sleep(for: delay)
                await self?.announceLinkDown(path)
            }
        }
        for charPath in characteristics.keys.sorted() where characteristics[charPath]?.connection == id {
            characteristics[charPath]?.writeSocket?.shutDown()
            characteristics[charPath]?.notifySocket?.shutDown()
            // MTU exists only while a GATT client is attached; gdbus does not announce that.
            setProperties(charPath, StandInName.gattCharacteristic, [:], invalidated: ["MTU"], signal: false)
        }
        if !connection.disconnectRequested {
            stats(connection.peripheral) { $0.linkLosses += 1 }
            if !connection.droppedForSecurity { moveIfRebooted(connection.peripheral) }
        }
        for waiter in connection.downWaiters { waiter.resume() }
        for waiter in connection.readyWaiters { waiter.resume(returning: false) }
    }

    /// ServicesResolved and Connected false, unless the device is connected again by now.
    private func announceLinkDown(_ path: String) {
        guard let device = devices[path], device.connection == nil else { return }
        setProperties(path, StandInName.device, ["ServicesResolved": .bool(false), "Connected": .bool(false)])
    }

    /// `addressAfterReboot`: from now on the device advertises under its new address.
    private func moveIfRebooted(_ peripheral: Int) {
        guard let state = peripherals[peripheral], let next = state.spec.addressAfterReboot,
              state.address != next else { return }
        peripherals[peripheral]?.address = next
        for path in devices.keys where devices[path]?.peripheral == peripheral && devices[path]?.address != next {
            devices[path]?.peripheral = nil
        }
    }

    /// Drops a device's link as the radio losing it would (supervision timeout), not by
    /// Device1.Disconnect: counts as a link loss, and moves an `addressAfterReboot` device.
    func dropLink(address: String) async {
        guard let path = devices.values.first(where: { $0.address == address.uppercased() && $0.connection != nil })?.path,
              let id = devices[path]?.connection, let link = connections[id]?.link else { return }
        await withCheckedContinuation { (down: CheckedContinuation<Void, Never>) in
            connections[id]?.downWaiters.append(down)
            Task {
                if let memory = link as? MemoryLink {
                    await memory.inject(.dropAt(.zero))
                } else {
                    await link.disconnect()
                }
            }
        }
        await outbox.flush()
    }
}
