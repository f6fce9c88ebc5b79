import DBusBinding
import Transport

/// The stand-in's whole state, one actor: adapters, the devices it heard, connections and their
/// GATT objects. Method handlers call in here; every bus effect is queued on `outbox` in the
/// order the state changed (see `StandInOutbox`). Extensions hold the adapter, device and GATT
/// behaviour; this file holds the object table every one of them publishes through.
actor StandInCore {
    struct AdapterState {
        let name: String
        let path: String
        var address: String
        var powered: Bool
        /// Clients discovering (unique name → filter, nil: none).
        var sessions: [String: StandInDiscoveryFilter?] = [:]
        /// Filters set before StartDiscovery (adapter.c `set_filter_list`).
        var presetFilters: [String: StandInDiscoveryFilter] = [:]
        /// Devices given an RSSI during this discovery (their RSSI is invalidated when it ends).
        var found: Set<String> = []
    }

    struct PeripheralState {
        let id: Int
        var spec: BlueZStandInDevice
        /// Where it advertises now (changes once with `addressAfterReboot`).
        var address: String
        var advertising = true
        /// What `spec.onAir` said at the latest advertising interval (nil: it has no such closure).
        var onAirNow: Bool?
        var connectFailuresLeft: Int
        /// Every Connect fails with `Failed: this` until a client removes the device's object.
        var stuckUntilRemoved: String?
    }

    struct DeviceState {
        let path: String
        let address: String
        let adapter: String
        /// The device behind this address; nil once it moved to another address.
        var peripheral: Int?
        /// The device this address first belonged to (for statistics, also after it moved).
        let owner: Int
        var pendingConnect: UInt64?
        var connection: UInt64?
        var connectionCount = 0
        /// GATT objects exported for the latest connection: services, characteristics, descriptors.
        var gattPaths: [String] = []
        /// The RSSI Device1 shows, nil when absent.
        var rssi: Int16?
    }

    struct ConnectionState {
        let id: UInt64
        let device: String
        let peripheral: Int
        let link: any Link
        let commands: StandInCommandQueue
        var ready = false
        var disconnectRequested = false
        /// What the link's encryption gives (starts at the bond's level: bluetoothd encrypts with
        /// the stored LTK at connect, no agent involved).
        var security: BlueZStandInLinkSecurity = .none
        /// The kernel dropped the link after failed pairing: a link loss, but not a reboot.
        var droppedForSecurity = false
        var downWaiters: [CheckedContinuation<Void, Never>] = []
        var readyWaiters: [CheckedContinuation<Bool, Never>] = []
    }

    struct CharacteristicState {
        let path: String
        let device: String
        let connection: UInt64
        let id: CharacteristicID
        let properties: CharacteristicProperties
        var writeSocket: AcquiredSocket?
        var notifySocket: AcquiredSocket?
        /// StartNotify clients (unique names).
        var notifySessions: Set<String> = []
        var notifying = false
        var requestInFlight = false
        var pendingRead: (offset: UInt16, task: Task<Result<[UInt8], DBusError>, Never>)?
    }

    let outbox: StandInOutbox
    let timing: BlueZStandInTiming
    /// The stand-in's bus connection, for the calls bluetoothd makes itself (Agent1).
    let bus: DBusConnection
    var objects: [String: DBusExportedObject] = [:]
    var adapters: [String: AdapterState] = [:]
    var peripherals: [Int: PeripheralState] = [:]
    var devices: [String: DeviceState] = [:]
    var characteristics: [String: CharacteristicState] = [:]
    var connections: [UInt64: ConnectionState] = [:]
    var pendingConnectTasks: [UInt64: Task<Result<any Link, LinkError>, Never>] = [:]
    /// The most Device1.Connect calls pending at once, over every device.
    var peakPendingConnects = 0
    var statistics: [Int: BlueZStandInStatistics] = [:]
    var lastID: UInt64 = 0
    var discoveryTicker: Task<Void, Never>?
    /// StartDiscovery calls per adapter, and the (adapter, peripheral) pairs reported since each
    /// adapter's latest one (`BlueZStandInDevice.scanStartsMissed`).
    var scanStarts: [String: Int] = [:]
    var reportedSinceScanStart: Set<String> = []
    /// `waitUntilDiscovering` callers, resumed when a discovery session starts.
    var discoveryWaiters: [(adapter: String, continuation: CheckedContinuation<Void, Never>)] = []
    var stopped = false
    /// Registered agents by owner (agent.c `agent_list`), and the default queue: its head is
    /// the default agent (agent.c `default_agents`).
    var agents: [String: AgentState] = [:]
    var defaultAgents: [String] = []
    /// Bonds by device path: the level the stored LTK gives.
    var bonds: [String: BlueZStandInLinkSecurity] = [:]
    /// Pairing under way, by device path.
    var pairings: [String: PairingState] = [:]
    /// Calls bluetoothd 5.66 never answers (AcquireNotify on an insecure link): released at stop.
    var unanswered: [CheckedContinuation<Void, Never>] = []

    init(outbox: StandInOutbox, timing: BlueZStandInTiming, bus: DBusConnection) {
        self.outbox = outbox
        self.timing = timing
        self.bus = bus
    }

    func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    // MARK: Object table

    /// Exports `interfaces` at `path` (plus Introspectable and Properties, as gdbus adds them) and
    /// announces it with InterfacesAdded on `/`.
    func addObject(_ path: String, _ interfaces: [DBusExportedInterface]) {
        let object = DBusExportedObject(path: path, interfaces: interfaces + standardInterfaces(path))
        objects[path] = object
        outbox.send(.export(object))
        outbox.send(.signal(path: "/", interface: StandInName.objectManager, member: "InterfacesAdded",
                            arguments: [.objectPath(path), .interfaces(object.interfaces.mapValues(\.properties))]))
    }

    /// Removes the object and announces it with InterfacesRemoved.
    func removeObject(_ path: String) {
        guard let object = objects.removeValue(forKey: path) else { return }
        outbox.send(.unexport(path))
        outbox.send(.signal(path: "/", interface: StandInName.objectManager, member: "InterfacesRemoved",
                            arguments: [.objectPath(path), .strings(object.interfaces.keys.sorted())]))
    }

    /// Changes properties and sends ONE PropertiesChanged for them (`signal` false: a property
    /// that only appears or disappears, which gdbus does not announce).
    func setProperties(_ path: String, _ interface: String, _ changed: [String: DBusValue],
                       invalidated: [String] = [], signal: Bool = true) {
        guard var object = objects[path], var exported = object.interfaces[interface] else { return }
        for (name, value) in changed { exported.properties[name] = value }
        for name in invalidated { exported.properties[name] = nil }
        object.interfaces[interface] = exported
        objects[path] = object
        outbox.send(.export(object))
        guard signal, !(changed.isEmpty && invalidated.isEmpty) else { return }
        outbox.send(.signal(path: path, interface: StandInName.properties, member: "PropertiesChanged",
                            arguments: [.string(interface), .properties(changed), .strings(invalidated)]))
    }

    func property(_ path: String, _ interface: String, _ name: String) -> DBusValue? {
        objects[path]?.interfaces[interface]?.properties[name]
    }

    private func standardInterfaces(_ path: String) -> [DBusExportedInterface] {
        [
            DBusExportedInterface(name: StandInName.introspectable, methods: [
                "Introspect": method(path, signature: "") { core, _ in [.string(await core.introspect(path))] },
            ]),
            DBusExportedInterface(name: StandInName.properties),
        ]
    }

    /// A method handler that checks the argument signature (gdbus answers InvalidArgs otherwise)
    /// and reaches this actor weakly (the connection keeps handlers; the actor must be able to go).
    nonisolated func method(_ path: String, signature: String,
                            _ body: @escaping @Sendable (StandInCore, DBusMethodCall) async throws -> [DBusValue])
        -> DBusMethodHandler {
        { [weak self] call in
            guard let self else {
                throw DBusError.remote(name: DBusErrorName.unknownObject, message: "Method \"\(call.member)\" on \(path) is gone")
            }
            guard call.arguments.dbusSignature == signature else {
                throw DBusError.remote(name: DBusErrorName.invalidArgs, message: "Invalid arguments in method call")
            }
            return try await body(self, call)
        }
    }

    /// The root: ObjectManager on `/`, and `/org/bluez` with its managers (as bluetoothd has).
    func exportRoot() {
        let root = DBusExportedObject(path: "/", interfaces: [
            DBusExportedInterface(name: StandInName.objectManager, methods: [
                "GetManagedObjects": method("/", signature: "") { core, _ in [await core.managedObjects()] },
            ]),
        ] + standardInterfaces("/"))
        objects["/"] = root
        outbox.send(.export(root))
        addObject("/org/bluez", [agentManagerInterface("/org/bluez"),
                                 DBusExportedInterface(name: StandInName.profileManager)])
    }

    func managedObjects() -> DBusValue {
        .managedObjects(objects.filter { $0.key != "/" }.mapValues { $0.interfaces.mapValues(\.properties) })
    }

    func introspect(_ path: String) -> String {
        let prefix = path == "/" ? "/" : path + "/"
        let children = Set(objects.keys.filter { $0.hasPrefix(prefix) && $0 != path }
            .compactMap { $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init) })
        var xml = "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
        xml += "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n<node>"
        for interface in (objects[path]?.interfaces.keys.sorted() ?? []) {
            xml += "<interface name=\"\(interface)\"></interface>"
        }
        for child in children.sorted() { xml += "<node name=\"\(child)\"/>" }
        return xml + "</node>"
    }

    // MARK: Clients leaving the bus

    /// A client left the bus: its discovery sessions, filters, notify sessions and agent go
    /// (adapter.c `discovery_disconnect`, gatt-client.c `notify_client_disconnect`, agent.c
    /// `agent_disconnect`).
    func clientLeft(_ name: String) {
        removeAgent(owner: name)
        for path in pairings.keys.sorted() where pairings[path]?.requester == name { abortPairing(path) }
        for adapterName in adapters.keys.sorted() {
            adapters[adapterName]?.presetFilters[name] = nil
            if adapters[adapterName]?.sessions.removeValue(forKey: name) != nil {
                discoverySessionEnded(adapterName)
            }
        }
        for path in characteristics.keys.sorted() {
            guard characteristics[path]?.notifySessions.remove(name) != nil else { continue }
            updateNotifying(path)
        }
    }

    func stats(_ peripheral: Int?, _ change: (inout BlueZStandInStatistics) -> Void) {
        guard let peripheral else { return }
        change(&statistics[peripheral, default: BlueZStandInStatistics()])
    }
}
