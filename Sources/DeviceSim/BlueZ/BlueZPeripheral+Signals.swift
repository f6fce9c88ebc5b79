import Transport

/// bluetoothd's signals a peripheral follows: centrals connecting and disconnecting (Device1
/// under our adapter), the adapter powering off or going away, bluetoothd leaving the bus.
extension BlueZPeripheral {
    /// Subscribes (the bus has the match rules when this returns) and follows each stream in a
    /// task of its own. A stream that ends means the connection broke.
    func watchSignals() async throws {
        let adapterPath = BlueZNames.adapterPath(adapter)
        let streams = [
            try await connection.signals(matching: DBusMatchRule(
                sender: BlueZNames.service, pathNamespace: adapterPath,
                interface: DBusStandardInterface.properties, member: "PropertiesChanged")),
            try await connection.signals(matching: DBusMatchRule(
                sender: BlueZNames.service, path: "/", interface: DBusStandardInterface.objectManager)),
            try await connection.signals(matching: DBusMatchRule(
                sender: DBusStandardInterface.bus, path: "/org/freedesktop/DBus",
                interface: DBusStandardInterface.bus, member: "NameOwnerChanged")),
        ]
        for stream in streams {
            watchers.append(Task { [weak self] in
                for await signal in stream {
                    await self?.handle(signal)
                }
                await self?.fail(.busLost)
            })
        }
    }

    private func handle(_ signal: DBusSignal) {
        guard !finished else { return }
        let adapterPath = BlueZNames.adapterPath(adapter)
        switch signal.member {
        case "PropertiesChanged":
            guard let change = try? DBusPropertiesChanged(signal) else { return }
            if change.interface == BlueZNames.device, change.path.hasPrefix(adapterPath + "/"),
               let connected = try? change.changed["Connected"]?.asBool() {
                connected ? linkUp(change.path) : linkDown(change.path)
            } else if change.interface == BlueZNames.adapter, change.path == adapterPath,
                      (try? change.changed["Powered"]?.asBool()) == false {
                fail(.poweredOff(adapter))
            }
        case "InterfacesAdded":
            guard let added = try? DBusInterfacesAdded(signal), added.object.hasPrefix(adapterPath + "/"),
                  (try? added.interfaces[BlueZNames.device]?["Connected"]?.asBool()) == true else { return }
            linkUp(added.object)
        case "InterfacesRemoved":
            guard let removed = try? DBusInterfacesRemoved(signal) else { return }
            if removed.object == adapterPath, removed.interfaces.contains(BlueZNames.adapter) {
                fail(.adapterRemoved(adapter))
            } else if removed.interfaces.contains(BlueZNames.device) {
                linkDown(removed.object)
            }
        case "NameOwnerChanged":
            guard signal.arguments.count >= 3, (try? signal.arguments[0].asString()) == BlueZNames.service,
                  (try? signal.arguments[2].asString()) == "" else { return }
            fail(.bluetoothdStopped)
        default:
            break
        }
    }

    private func linkUp(_ path: String) {
        let central = BlueZPeripheralEvent.central(at: path)
        if centrals.linkUp(path) {
            observer(.centralConnected(central))
        } else if centrals.current?.path != path {
            observer(.centralIgnored(central))
        }
    }

    private func linkDown(_ path: String) {
        guard let deviceWasConnected = centrals.linkDown(path) else { return }
        observer(.centralDisconnected(BlueZPeripheralEvent.central(at: path)))
        if deviceWasConnected { perform(model.handle(.disconnected, now: clock.now)) }
    }
}
