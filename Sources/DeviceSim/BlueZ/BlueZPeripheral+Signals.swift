import BlueZTransport
import DBusBinding
import Transport

/// bluetoothd's signals a peripheral follows: centrals connecting and disconnecting (Device1
/// under our adapter), the adapter powering off or going away, bluetoothd leaving the bus.
extension BlueZPeripheral {
    /// Subscribes (the bus has the match rules when this returns) and follows each stream in a
    /// task of its own. A stream that ends means the connection broke.
    func watchSignals() async throws {
        var streams: [AsyncStream<DBusSignal>] = []
        for served in servedAdapters {
            streams.append(try await connection.signals(matching: DBusMatchRule(
                sender: BlueZNames.service, pathNamespace: BlueZNames.adapterPath(served),
                interface: DBusStandardInterface.properties, member: "PropertiesChanged")))
        }
        streams += [
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
        let adapterPaths = servedAdapters.map(BlueZNames.adapterPath)
        let underAnAdapter: (String) -> Bool = { path in adapterPaths.contains { path.hasPrefix($0 + "/") } }
        let adapterNamed: (String) -> String? = { path in
            adapterPaths.contains(path) ? String(path.dropFirst(BlueZNames.adapterPath("").count)) : nil
        }
        switch signal.member {
        case "PropertiesChanged":
            guard let change = try? DBusPropertiesChanged(signal) else { return }
            if change.interface == BlueZNames.device, underAnAdapter(change.path),
               let connected = try? change.changed["Connected"]?.asBool() {
                connected ? linkUp(change.path) : linkDown(change.path)
            } else if change.interface == BlueZNames.adapter, let served = adapterNamed(change.path),
                      (try? change.changed["Powered"]?.asBool()) == false {
                fail(.poweredOff(served))
            }
        case "InterfacesAdded":
            guard let added = try? DBusInterfacesAdded(signal), underAnAdapter(added.object),
                  (try? added.interfaces[BlueZNames.device]?["Connected"]?.asBool()) == true else { return }
            linkUp(added.object)
        case "InterfacesRemoved":
            guard let removed = try? DBusInterfacesRemoved(signal) else { return }
            if let served = adapterNamed(removed.object), removed.interfaces.contains(BlueZNames.adapter) {
                fail(.adapterRemoved(served))
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
