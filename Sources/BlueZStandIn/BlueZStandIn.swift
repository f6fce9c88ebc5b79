import DBusBinding
import Transport

/// A stand-in for bluetoothd 5.66 on a private bus: it owns `org.bluez` and answers as
/// bluetoothd does where a central relies on it (bluez-dbus.md §1, §2, §8): ObjectManager on `/`,
/// Adapter1 discovery sessions and filters, Device1 Connect/Disconnect with ServicesResolved and
/// link loss, remote GATT objects with ReadValue/WriteValue/AcquireWrite/AcquireNotify/StartNotify.
///
/// The radio behind it is any `Connector`: each Device1.Connect calls `connect(to:deadline:)` for
/// the device's peer, fd datagrams and WriteValue commands become `writeWithoutResponse`, the
/// link's notifications become fd datagrams or PropertiesChanged(Value), and the link's end
/// becomes Connected=false. So DeviceSim's `VirtualPeripheral` on a `MemoryConnector` can sit
/// behind it.
///
///     let daemon = try PrivateDBusDaemon.start()
///     let standIn = try await BlueZStandIn.start(bus: daemon.address)
///     await standIn.add(BlueZStandInDevice(address: "C2:11:40:55:7A:01", advertisement: …,
///                                          connector: connector, peer: peripheral.identity))
///     … DBUS_SYSTEM_BUS_ADDRESS=daemon.address for the code under test …
///     await standIn.stop(); daemon.stop()
///
/// A test double, kept under `Sources` so that the fault campaign (`dfu-faults`, its `bluez-*`
/// runs) can use it as well as the tests; no product links it, so `dfu` never carries it.
public final class BlueZStandIn: Sendable {
    /// The stand-in's own bus connection (it owns `org.bluez`).
    public let connection: DBusConnection
    private let core: StandInCore
    private let outbox: StandInOutbox
    private let watcher: Task<Void, Never>

    private init(connection: DBusConnection, core: StandInCore, outbox: StandInOutbox, watcher: Task<Void, Never>) {
        self.connection = connection
        self.core = core
        self.outbox = outbox
        self.watcher = watcher
    }

    public struct StartFailed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Connects to `bus`, exports the adapters (none: "no adapter") and takes `org.bluez`.
    public static func start(bus: String, adapters: [BlueZStandInAdapter] = [BlueZStandInAdapter()],
                             timing: BlueZStandInTiming = BlueZStandInTiming()) async throws -> BlueZStandIn {
        let connection = try await DBusConnection.connect(to: .address(bus))
        let outbox = StandInOutbox(connection: connection)
        let core = StandInCore(outbox: outbox, timing: timing, bus: connection)
        await core.exportRoot()
        for adapter in adapters { await core.addAdapter(adapter) }
        await outbox.flush()
        // Clients that leave lose their discovery and notify sessions (bluetoothd's disconnect watches).
        let owners = try await connection.signals(matching: DBusMatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"))
        let watcher = Task { [weak core] in
            for await signal in owners {
                guard let name = try? signal.arguments.argument(0).asString(),
                      let newOwner = try? signal.arguments.argument(2).asString(),
                      name.hasPrefix(":"), newOwner.isEmpty else { continue }
                await core?.clientLeft(name)
            }
        }
        let reply = try await connection.requestName(StandInName.service)
        guard reply == .primaryOwner else {
            watcher.cancel()
            connection.close()
            throw StartFailed(description: "org.bluez is owned by someone else (\(reply))")
        }
        return BlueZStandIn(connection: connection, core: core, outbox: outbox, watcher: watcher)
    }

    /// Makes a device hearable (while its adapter discovers) and connectable.
    public func add(_ device: BlueZStandInDevice) async {
        await core.addPeripheral(device)
    }

    /// Powers an adapter off (links drop, discovery ends, calls answer NotReady) or on.
    public func setPowered(_ powered: Bool, adapter: String = "hci0") async {
        await core.setPowered(powered, adapter: adapter)
    }

    /// Stops (or restarts) a device's advertising: not heard, and Connect times out.
    public func setAdvertising(_ advertising: Bool, address: String) async {
        await core.updatePeripheral(address) { $0.advertising = advertising }
    }

    /// The strength the device is heard at from now on.
    public func setRSSI(_ rssi: Int16, address: String) async {
        await core.updatePeripheral(address) { $0.spec.advertisement.rssi = rssi }
    }

    /// The next `count` Device1.Connect calls fail with `Failed: message`.
    public func failNextConnects(_ count: Int, address: String, message: String = "le-connection-abort-by-local") async {
        await core.updatePeripheral(address) {
            $0.connectFailuresLeft = count
            $0.spec.connectFailureMessage = message
        }
    }

    /// Every Device1.Connect to the device fails with `Failed: message` until a client removes
    /// its Device1 object (RemoveDevice): bluetoothd's state for it is stuck.
    public func stickConnects(address: String, message: String = "le-connection-abort-by-local") async {
        await core.updatePeripheral(address) { $0.stuckUntilRemoved = message }
    }

    /// Drops the device's link as the radio losing it would; returns once Connected=false is out.
    public func dropLink(address: String) async {
        await core.dropLink(address: address)
    }

    /// Returns once a client has a discovery session on `adapter` (the code under test scans).
    public func waitUntilDiscovering(adapter: String = "hci0") async {
        await core.waitUntilDiscovering(adapter)
    }

    /// What the stand-in saw for the device first added under `address`.
    /// The most Device1.Connect calls that were pending at the same time.
    public func peakPendingConnects() async -> Int {
        await core.peakPendingConnects
    }

    public func statistics(address: String) async -> BlueZStandInStatistics {
        await core.statistics(firstAddress: address)
    }

    /// Device1's object path for `address` on `adapter`.
    public static func devicePath(address: String, adapter: String = "hci0") -> String {
        StandInName.devicePath(adapter: adapter, address: address)
    }

    /// Bus operations that failed (a stand-in bug): a test can assert there were none.
    public var problems: [String] { outbox.problems }

    /// The bond the stand-in holds for `address` on `adapter`: nil none, `.encrypted` a Just
    /// Works bond, `.authenticated` a passkey bond. RemoveDevice forgets it.
    public func bond(address: String, adapter: String = "hci0") async -> BlueZStandInLinkSecurity? {
        await core.bonds[StandInName.devicePath(adapter: adapter, address: address)]
    }

    /// The security of the device's current link (nil: not connected).
    public func linkSecurity(address: String, adapter: String = "hci0") async -> BlueZStandInLinkSecurity? {
        await core.linkSecurity(StandInName.devicePath(adapter: adapter, address: address))
    }

    /// Bonds the device as an earlier pairing would have (stored keys, as bluetoothd loads them
    /// at start): Device1 shows Paired and Bonded (exported now if it was never heard), and every
    /// connection starts encrypted at that level with no agent involved.
    public func setBonded(address: String, authenticated: Bool = true, adapter: String = "hci0") async {
        await core.setBonded(address: address.uppercased(), adapter: adapter,
                             level: authenticated ? .authenticated : .encrypted)
        await outbox.flush()
    }

    /// The device forgets its bonds (`BlueZStandInDevice.bondLost`) from now until it pairs again.
    public func setBondLost(address: String) async {
        await core.setBondLost(address: address.uppercased())
    }

    /// Waits until every signal already decided is on the bus.
    public func flush() async {
        await outbox.flush()
    }

    /// Drops every link, shuts every acquired socket and leaves the bus (org.bluez loses its owner).
    public func stop() async {
        await core.stop()
        await outbox.flush()
        outbox.finish()
        watcher.cancel()
        connection.close()
    }
}

extension StandInCore {
    func setBondLost(address: String) {
        for (id, peripheral) in peripherals where peripheral.address == address {
            peripherals[id]?.spec.bondLost = true
        }
    }

    func addPeripheral(_ spec: BlueZStandInDevice) {
        let id = peripherals.count + 1
        peripherals[id] = PeripheralState(id: id, spec: spec, address: spec.address,
                                          connectFailuresLeft: spec.connectFailures)
        statistics[id] = BlueZStandInStatistics()
    }

    /// Changes the device first added under `address` (or advertising under it now).
    func updatePeripheral(_ address: String, _ change: (inout PeripheralState) -> Void) {
        let address = address.uppercased()
        guard let id = peripherals.values.first(where: { $0.spec.address == address || $0.address == address })?.id,
              var state = peripherals[id] else { return }
        change(&state)
        peripherals[id] = state
    }

    func statistics(firstAddress address: String) -> BlueZStandInStatistics {
        guard let id = peripherals.values.first(where: { $0.spec.address == address.uppercased() })?.id else {
            return BlueZStandInStatistics()
        }
        return statistics[id] ?? BlueZStandInStatistics()
    }

    func stop() async {
        stopped = true
        discoveryTicker?.cancel()
        discoveryTicker = nil
        // Nobody will discover on a stand-in that left the bus: let waiters go.
        for waiter in discoveryWaiters { waiter.continuation.resume() }
        discoveryWaiters = []
        for task in pendingConnectTasks.values { task.cancel() }
        for path in devices.keys.sorted() where devices[path]?.connection != nil {
            _ = await disconnect(path, counted: false)
        }
        for state in characteristics.values {
            state.writeSocket?.shutDown()
            state.notifySocket?.shutDown()
        }
        // The never-answered calls' handlers may end now (their callers gave up long ago).
        for call in unanswered { call.resume() }
        unanswered = []
    }
}
