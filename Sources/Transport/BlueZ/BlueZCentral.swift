import DBusBinding
import Transport

/// One adapter of bluetoothd, opened for the central role. Sendable: only immutable state; the
/// live object tree sits in the client's store.
///
/// One bus connection per central: BlueZ keys discovery sessions and notify subscriptions by the
/// D-Bus client, so everything this central starts is ours to stop, and dies with the connection.
public final class BlueZCentral: Sendable {
    let client: BlueZClient
    let adapter: BlueZAdapterInfo

    private init(client: BlueZClient, adapter: BlueZAdapterInfo) {
        self.client = client
        self.adapter = adapter
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` honoured), reads bluetoothd's objects
    /// and picks the adapter: `adapter` ("hci1") or, when nil, the first powered one (by name order).
    public static func open(adapter: String?, bus: DBusBusAddress = .system) async throws(BlueZError) -> BlueZCentral {
        let client = try await BlueZClient.open(bus: bus)
        do throws(BlueZError) {
            let chosen = try choose(adapter, from: client.store.tree.adapters)
            return BlueZCentral(client: client, adapter: chosen)
        } catch {
            client.close()
            throw error
        }
    }

    /// The names of the powered adapters, by name order (`dfu batch --adapter all`); throws
    /// `noAdapter` or `adapterPoweredOff` when there is none.
    public static func poweredAdapters(bus: DBusBusAddress = .system) async throws(BlueZError) -> [String] {
        let client = try await BlueZClient.open(bus: bus)
        defer { client.close() }
        let adapters = client.store.tree.adapters
        guard let first = adapters.first else { throw .noAdapter }
        let powered = adapters.filter(\.powered).map(\.name)
        guard !powered.isEmpty else { throw .adapterPoweredOff(first.name) }
        return powered
    }

    /// The adapter rule of `open`, on the adapters bluetoothd listed (sorted by name).
    static func choose(_ name: String?, from adapters: [BlueZAdapterInfo]) throws(BlueZError) -> BlueZAdapterInfo {
        guard let fallback = adapters.first else { throw .noAdapter }
        guard let name else {
            guard let powered = adapters.first(where: \.powered) else { throw .adapterPoweredOff(fallback.name) }
            return powered
        }
        guard let named = adapters.first(where: { $0.name == name }) else {
            throw .adapterNotFound(name, available: adapters.map(\.name))
        }
        guard named.powered else { throw .adapterPoweredOff(name) }
        return named
    }

    /// "hci0".
    public var adapterName: String { adapter.name }
    /// "AA:BB:…".
    public var adapterAddress: String { adapter.address }

    /// Discovers devices matching `filter` for `timeout` (LE transport, duplicates on so RSSI
    /// updates), calling `found` the first time each matching device is seen, and returns every
    /// match (latest RSSI), strongest first. `stopWhen` ends the scan early when it returns true
    /// for a device. Stops discovery (and clears its filter) however it ends, cancellation too
    /// (a cancelled scan returns what it heard so far).
    public func scan(_ filter: BlueZScanFilter, timeout: Duration,
                     stopWhen: @Sendable (BlueZDiscoveredDevice) -> Bool = { _ in false },
                     found: @Sendable (BlueZDiscoveredDevice) -> Void = { _ in }) async throws(BlueZError)
        -> [BlueZDiscoveredDevice] {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var collector = BlueZScanCollector(filter: filter, adapterPath: adapter.path)
        let session = try await BlueZScanSession.start(client: client, adapter: adapter, filter: filter, deadline: deadline)
        /// Reports sightings; true when `stopWhen` asks to end.
        func report(_ devices: [BlueZDeviceInfo]) -> Bool {
            for sighting in collector.consider(devices) {
                if sighting.isNew { found(sighting.device) }
                if stopWhen(sighting.device) { return true }
            }
            return false
        }
        var stopped = report(session.initialTree.devices(of: adapter.path))
        if !stopped {
            for await update in session.updates where report([update]) {
                stopped = true
                break
            }
        }
        await session.stop()
        if !stopped, let failure = session.failure { throw failure }
        return collector.matches
    }

    /// A connector for the engine. `expecting` are the services the caller needs (the SMP
    /// service): used to rediscover a device that came back under another address (same name,
    /// advertising one of these services) and to check the GATT layout is resolved.
    /// `capWritesForBlueZPeers` caps writes at 510 bytes (BlueZ ≤ 5.68 peers drop longer ones).
    public func connector(expecting services: [ServiceID], capWritesForBlueZPeers: Bool = true,
                          log: @escaping @Sendable (String) -> Void = { _ in }) -> BlueZConnector {
        BlueZConnector(client: client, adapter: adapter, expecting: services,
                       capWritesForBlueZPeers: capWritesForBlueZPeers, log: log)
    }

    /// A connector that pairs devices which demand a secure link, as `pairing` says; its agent is
    /// registered with bluetoothd now (when `pairing` has one) and stays until
    /// `BlueZConnector.releaseAgent()` or `close()`.
    /// `connectGate`, shared by connectors on one adapter, lets one of them create a connection at a time.
    public func connector(expecting services: [ServiceID], pairing: BlueZPairing, capWritesForBlueZPeers: Bool = true,
                          connectGate: BlueZConnectGate? = nil,
                          log: @escaping @Sendable (String) -> Void = { _ in }) async throws(BlueZError) -> BlueZConnector {
        let agent = try await BlueZAgent.register(on: client.connection, pairing: pairing, log: log)
        return BlueZConnector(client: client, adapter: adapter, expecting: services,
                              capWritesForBlueZPeers: capWritesForBlueZPeers, pairing: pairing, agent: agent,
                              connectGate: connectGate, log: log)
    }

    /// Releases the bus connection (links still open end with `.disconnected`).
    public func close() {
        client.close()
    }
}
