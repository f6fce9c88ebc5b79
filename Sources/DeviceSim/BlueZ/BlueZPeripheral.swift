import BlueZTransport
import DBusBinding
import DFUCore
import Transport

/// Serves one virtual device (a `PeripheralModel`: the Zephyr SMP device, or the Nordic nRF52) as
/// a BLE peripheral through bluetoothd's D-Bus API: the device's GATT database registered as a GATT
/// application (GattManager1) and advertised, connectable and discoverable, with its service UUID
/// and a name (LEAdvertisingManager1). Any central, `dfu` included, can then scan for it, connect
/// and update it like the real device.
///
///     let peripheral = try await BlueZPeripheral.serve(SimOptions.parse("sim:version=1.0.0"),
///                                                      adapter: "hci0") { print($0) }
///     print(peripheral.name, peripheral.address)      // dfu-sim-EEFF 00:AA:01:00:00:23
///     …
///     await peripheral.stop()
///
/// The thin driver around the sans-I/O device, like `VirtualPeripheral` (memory link) and
/// `VirtualDeviceUDPServer`; it makes no protocol decisions. Its waits come from the model only:
/// one timer at the device's `nextDeadline` and the `after` delay of a delayed reply.
///
/// How BlueZ's peripheral side maps onto the device's events:
/// - A central's link starts when its Device1 object under our adapter goes `Connected` (or it
///   first calls us); the device is told `.connected` at the first write, sized by that call's
///   `mtu` (`CentralTracker`), then `.subscribed` for what bluetoothd already called StartNotify
///   on. It ends with `Connected` false.
/// - Each write is one `WriteValue` call, in arrival order (`ArrivalOrder`); a Write Request's
///   reply is the ATT response, so a refusal is a D-Bus error bluetoothd turns into the ATT error
///   (`PeripheralWriteRefusal`). Each `.notify` is a PropertiesChanged of the characteristic's
///   `Value`, sent only while bluetoothd has called StartNotify (a central subscribed).
/// - `.dropLink`: Device1.Disconnect on the central (≈2 s in BlueZ 5.66). For a reset the
///   advertisement is unregistered first, then the link dropped, then the application
///   unregistered, so a central cannot find the device again before the reboot is over
///   (reference §8); `.online` registers the current database and the advertisement again.
/// All of these go out one at a time, in the order the device asked for them.
public actor BlueZPeripheral<Model: PeripheralModel> {
    /// One thing to do on the bus, in order.
    enum Outgoing: Sendable {
        /// A notification for link number `generation` (not sent on a later link).
        case notify(CharacteristicID, [UInt8], after: Duration, generation: Int)
        case disconnect(central: String)
        case unregisterAdvertisement
        case unregisterApplication
        case register
        /// The advertisement unregistered and registered again (`BlueZPeripheral+Readvertise`).
        case readvertise
    }

    public nonisolated let identity: PeerIdentity
    /// The adapter served on (`hci0`).
    public nonisolated let adapter: String
    /// Databases served on another adapter (a Nordic bootloader at an address of its own, which
    /// one adapter cannot take: `--bootloader-adapter`), by database index.
    public nonisolated let otherAdapters: [Int: String]
    /// The advertised name (a Nordic bootloader advertises its own while it runs).
    public nonisolated let name: String
    /// The adapter's address: what a central connects to.
    public nonisolated let address: String

    let connection: DBusConnection
    /// One GATT application per database of the model, exported once; the current one registered.
    let applications: [PeripheralApplication]
    let advertisementPath: String
    /// The device's pairing agent (`--security encrypt|authen`); nil for an open device.
    let agent: PeripheralAgent?
    var agentRegistered = false
    let clock: LinkClock
    let observer: @Sendable (BlueZPeripheralEvent) -> Void
    public internal(set) var model: Model
    var order = ArrivalOrder<CheckedContinuation<Void, Never>>()
    var centrals = CentralTracker()
    /// Characteristics bluetoothd called StartNotify on (and not StopNotify since).
    var notifying: Set<CharacteristicID> = []
    /// The database registered with bluetoothd now, if any.
    var registeredDatabase: Int?
    /// The adapter the registered database and the advertisement are on.
    var registeredAdapter: String?
    var advertised = false
    var outbox: [Outgoing] = []
    var draining = false
    private var timer = DeadlineTimer()
    var watchers: [Task<Void, Never>] = []
    /// How often advertising starts again while no central is connected; nil: never.
    let readvertiseEvery: Duration?
    var finished = false
    /// Why the server stopped by itself; nil while serving or after `stop()`.
    public private(set) var failure: BlueZServeError?
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Why `name` cannot be advertised whole (empty, or longer than a scan response holds), or
    /// nil when it can; checked before serving so a bad `--name` is a usage error.
    public static func problem(withName name: String) -> String? {
        PeripheralAdvertisement.problem(with: name)
    }

    /// Where our objects live on the bus; one server per adapter and process.
    static func objectRoot(for adapter: String) -> String { "/org/dfu/sim/" + adapter }

    init(model: Model, connection: DBusConnection, adapter: String, otherAdapters: [Int: String] = [:], address: String,
         name: String, pairing: PeripheralSecurity.Pairing = PeripheralSecurity.Pairing(), readvertiseEvery: Duration?,
         clock: LinkClock, observer: @escaping @Sendable (BlueZPeripheralEvent) -> Void) {
        self.model = model
        self.readvertiseEvery = readvertiseEvery
        self.connection = connection
        self.adapter = adapter
        self.otherAdapters = otherAdapters
        self.address = address
        self.name = name
        self.clock = clock
        self.observer = observer
        identity = model.identity
        let root = Self.objectRoot(for: adapter)
        applications = model.databases.enumerated().map { index, services in
            // The first keeps the path it always had; a second database gets its own.
            PeripheralApplication(root: root + (index == 0 ? "/app" : "/app\(index)"), services: services,
                                  security: pairing.security, secured: model.securedCharacteristics)
        }
        advertisementPath = root + "/advertisement"
        agent = PeripheralAgent(root: root, adapter: adapter, pairing: pairing)
    }

    /// Checks the adapter, exports the GATT applications and the advertisement, registers the
    /// current database and the advertisement, and starts serving `model`. `name` defaults to
    /// `dfu-sim-` and the end of the device identity. Throws before anything is registered when
    /// bluetoothd, the bus or the adapter is not usable.
    public static func serve(_ model: Model, adapter: String, otherAdapters: [Int: String] = [:], name: String? = nil,
                             pairing: PeripheralSecurity.Pairing = PeripheralSecurity.Pairing(),
                             readvertiseEvery: Duration? = nil,
                             bus: DBusBusAddress = .system, clock: LinkClock = .realTime(),
                             observer: @escaping @Sendable (BlueZPeripheralEvent) -> Void = { _ in })
        async throws(BlueZServeError) -> BlueZPeripheral {
        if let problem = pairing.problem { throw .options(.inconsistent(problem)) }
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: bus)
        } catch {
            throw .busUnreachable("\(error)")
        }
        do throws(BlueZServeError) {
            let address = try await BlueZAdapterCheck.check(adapter, on: connection)
            for other in Set(otherAdapters.values) where other != adapter {
                _ = try await BlueZAdapterCheck.check(other, on: connection)
            }
            let peripheral = BlueZPeripheral(model: model, connection: connection, adapter: adapter,
                                             otherAdapters: otherAdapters, address: address,
                                             name: name ?? PeripheralAdvertisement.defaultName(for: model.identity),
                                             pairing: pairing, readvertiseEvery: readvertiseEvery, clock: clock,
                                             observer: observer)
            try await peripheral.start()
            return peripheral
        } catch {
            connection.close()
            throw error
        }
    }

    /// The objects, the signal watches (before registering, so a quick central is not missed),
    /// then the registrations.
    private func start() async throws(BlueZServeError) {
        let handler = self.handler
        do {
            for application in applications {
                for object in application.objects(handler: handler) {
                    try await connection.export(object)
                }
                try await connection.exportObjectManager(at: application.root)
            }
            if let agent { try await connection.export(agent.object(handler: handler)) }
            try await watchSignals()
        } catch {
            throw BlueZServeError.classify(error, operation: "setting up the GATT application")
        }
        try await registerAgent()
        try await register()
        if let readvertiseEvery { startReadvertising(every: readvertiseEvery) }
        armTimer()
    }

    /// Registers the current database's application, then the advertisement with the current
    /// name and service (a central that finds the device must find its services).
    func register() async throws(BlueZServeError) {
        let database = model.currentDatabase
        let on = registeredAdapter ?? servingAdapter(for: database)
        let adapterPath = BlueZNames.adapterPath(on)
        if registeredDatabase == nil, let application = application(for: database) {
            try await callBlueZ(adapterPath, BlueZNames.gattManager, "RegisterApplication",
                                [.objectPath(application.root), .properties([:])])
            registeredDatabase = database
            registeredAdapter = on
        }
        if !advertised {
            let advertisement = currentAdvertisement
            do {
                try await connection.export(advertisement.object(handler: handler))
            } catch {
                throw BlueZServeError.classify(error, operation: "setting up the advertisement")
            }
            try await callBlueZ(adapterPath, BlueZNames.advertisingManager, "RegisterAdvertisement",
                                [.objectPath(advertisement.path), .properties([:])])
            advertised = true
            registeredAdapter = on
        }
    }

    /// The adapter database `database` is served on.
    func servingAdapter(for database: Int) -> String { otherAdapters[database] ?? adapter }

    /// Every adapter served on: the first, then the others.
    var servedAdapters: [String] { [adapter] + Set(otherAdapters.values).subtracting([adapter]).sorted() }

    /// Forgets where things were registered once nothing is.
    func releaseAdapterIfUnused() {
        if registeredDatabase == nil, !advertised { registeredAdapter = nil }
    }

    /// What is advertised now: the model's name when it picks one, else ours.
    var currentAdvertisement: PeripheralAdvertisement {
        PeripheralAdvertisement(path: advertisementPath, name: model.advertisedName ?? name, service: model.advertisedService)
    }

    func application(for database: Int) -> PeripheralApplication? {
        applications.indices.contains(database) ? applications[database] : nil
    }

    /// The application registered now.
    var registeredApplication: PeripheralApplication? {
        registeredDatabase.flatMap(application(for:))
    }

    /// Every exported method comes to `receive`.
    var handler: DBusMethodHandler {
        { [weak self] call in
            guard let self else {
                throw DBusError.remote(name: BlueZNames.Error.notPermitted, message: "the device is gone")
            }
            return try await self.receive(call)
        }
    }

    /// The agent, registered once for the server's life and made the default: bluetoothd asks the
    /// default agent for a responder's side of pairing (reference §9).
    private func registerAgent() async throws(BlueZServeError) {
        guard let agent else { return }
        try await callBlueZ(BlueZNames.agentManagerPath, BlueZNames.agentManager, "RegisterAgent",
                            [.objectPath(agent.path), .string(agent.capability)])
        agentRegistered = true
        try await callBlueZ(BlueZNames.agentManagerPath, BlueZNames.agentManager, "RequestDefaultAgent",
                            [.objectPath(agent.path)])
    }

    /// A call to bluetoothd; its own refusals (`org.bluez.Error.*`) become `.refused`.
    func callBlueZ(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue],
                   timeout: Duration = .seconds(30)) async throws(BlueZServeError) {
        do {
            _ = try await connection.call(destination: BlueZNames.service, path: path, interface: interface,
                                          member: member, arguments: arguments, timeout: timeout)
        } catch {
            if let error = error as? DBusError, error.remoteName?.hasPrefix("org.bluez.Error.") == true {
                throw .refused(operation: member, error)
            }
            throw BlueZServeError.classify(error, operation: member)
        }
    }

    /// Stops serving: unregisters the advertisement and the application (bluetoothd would drop
    /// both when we leave the bus anyway; asking is quicker), closes the connection. Idempotent.
    public func stop() async {
        guard !finished else { return }
        finish(failure: nil)
        let adapterPath = BlueZNames.adapterPath(registeredAdapter ?? adapter)
        if advertised {
            advertised = false
            try? await callBlueZ(adapterPath, BlueZNames.advertisingManager, "UnregisterAdvertisement",
                                 [.objectPath(advertisementPath)], timeout: .seconds(5))
        }
        if let application = registeredApplication {
            registeredDatabase = nil
            try? await callBlueZ(adapterPath, BlueZNames.gattManager, "UnregisterApplication",
                                 [.objectPath(application.root)], timeout: .seconds(5))
        }
        if agentRegistered, let agent {
            agentRegistered = false
            try? await callBlueZ(BlueZNames.agentManagerPath, BlueZNames.agentManager, "UnregisterAgent",
                                 [.objectPath(agent.path)], timeout: .seconds(5))
        }
        connection.close()
    }

    /// Returns once the server has stopped: `stop()`, or a failure (`failure` says which).
    public func waitUntilStopped() async {
        if finished { return }
        await withCheckedContinuation { finishWaiters.append($0) }
    }

    /// The server cannot go on (bluetoothd or the adapter went away).
    func fail(_ reason: BlueZServeError) {
        guard !finished else { return }
        finish(failure: reason)
        connection.close()
    }

    private func finish(failure: BlueZServeError?) {
        finished = true
        self.failure = failure
        timer.cancel()
        for watcher in watchers { watcher.cancel() }
        watchers = []
        outbox.removeAll()
        let waiters = finishWaiters
        finishWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    // MARK: - Time

    func tick() {
        timer.fired()
        guard !finished else { return }
        perform(model.handle(.tick, now: clock.now))
    }

    /// One timer at the device's next deadline, replaced whenever the device changes.
    func armTimer() {
        timer.arm(at: finished ? nil : model.nextDeadline, on: clock) { [weak self] in await self?.tick() }
    }
}
