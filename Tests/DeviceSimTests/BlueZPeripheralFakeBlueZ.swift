import DBusBinding
import DFUCore
import DeviceSim
import Testing
import Transport

/// The parts of bluetoothd a GATT peripheral application talks to, on a private bus: adapter
/// `hci0` with Adapter1, GattManager1 and LEAdvertisingManager1, and one central's Device1 under
/// it. Like bluetoothd it reads the application with GetManagedObjects when it is registered and
/// the advertisement's properties with GetAll; it forwards a central's writes as WriteValue with
/// `{device, link, mtu}` and no `type` (reference §8), and Disconnect turns `Connected` false.
/// Every manager call and Disconnect is recorded in order (`calls`).
actor FakeBlueZ {
    static let adapterPath = "/org/bluez/hci0"
    static let adapterAddress = "00:AA:01:00:00:23"
    static let centralPath = adapterPath + "/dev_11_22_33_44_55_66"

    let connection: DBusConnection
    /// "RegisterApplication /path", "UnregisterAdvertisement /path", "Disconnect /dev…", in order.
    private(set) var calls: [String] = []
    /// The application tree read at the last RegisterApplication.
    private(set) var application: [String: [String: [String: DBusValue]]] = [:]
    /// The advertisement's LEAdvertisement1 properties read at the last RegisterAdvertisement.
    private(set) var advertisement: [String: DBusValue] = [:]
    /// The peripheral's unique bus name (the caller of RegisterApplication).
    private(set) var peripheral: String?
    /// The agent registered with AgentManager1 (owner, path, capability).
    private(set) var agent: (owner: String, path: String, capability: String)?
    private var callWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    private init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Owns `org.bluez` on `bus` and exports the adapter (`powered` as given).
    static func start(on bus: BlueZPeripheralTestBus, powered: Bool = true) async throws -> FakeBlueZ {
        let connection = try await DBusConnection.connect(to: bus.busAddress)
        _ = try await connection.requestName("org.bluez")
        let fake = FakeBlueZ(connection: connection)
        try await fake.exportAdapter(powered: powered)
        return fake
    }

    private func exportAdapter(powered: Bool) async throws {
        try await connection.exportObjectManager(at: "/")
        let handler: DBusMethodHandler = { [weak self] call in
            guard let self else { return [] }
            return try await self.managerCall(call)
        }
        try await connection.export(DBusExportedObject(path: Self.adapterPath, interfaces: [
            DBusExportedInterface(name: "org.bluez.Adapter1", properties: [
                "Address": .string(Self.adapterAddress), "Powered": .bool(powered),
            ]),
            DBusExportedInterface(name: "org.bluez.GattManager1", methods: [
                "RegisterApplication": handler, "UnregisterApplication": handler,
            ]),
            DBusExportedInterface(name: "org.bluez.LEAdvertisingManager1", methods: [
                "RegisterAdvertisement": handler, "UnregisterAdvertisement": handler,
            ]),
        ]))
        try await connection.export(DBusExportedObject(path: "/org/bluez", interfaces: [
            DBusExportedInterface(name: "org.bluez.AgentManager1", methods: [
                "RegisterAgent": handler, "RequestDefaultAgent": handler, "UnregisterAgent": handler,
            ]),
        ]))
    }

    private func managerCall(_ call: DBusMethodCall) async throws -> [DBusValue] {
        let path = try call.arguments.argument(0).asObjectPath()
        switch call.member {
        case "RegisterApplication":
            peripheral = call.sender
            let reply = try await connection.call(destination: call.sender, path: path,
                                                  interface: DBusStandardInterface.objectManager,
                                                  member: "GetManagedObjects")
            application = try reply.argument(0).asManagedObjects()
        case "RegisterAgent":
            agent = (call.sender, path, (try? call.arguments.argument(1).asString()) ?? "")
        case "RegisterAdvertisement":
            let reply = try await connection.call(destination: call.sender, path: path,
                                                  interface: DBusStandardInterface.properties, member: "GetAll",
                                                  arguments: [.string("org.bluez.LEAdvertisement1")])
            advertisement = try reply.argument(0).asProperties()
        default:
            break
        }
        record("\(call.member) \(path)")
        return []
    }

    private func record(_ call: String) {
        calls.append(call)
        let ready = callWaiters.filter { $0.count <= calls.count }
        callWaiters.removeAll { $0.count <= calls.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once `count` calls have been recorded (bounded by the caller's hang guard).
    func waitForCalls(_ count: Int) async {
        if calls.count >= count { return }
        await withCheckedContinuation { callWaiters.append((count, $0)) }
    }

    /// The adapter is powered off (its Powered property goes false, as bluetoothd signals it).
    func powerOff() async throws {
        try await connection.setProperty(path: Self.adapterPath, interface: "org.bluez.Adapter1",
                                         name: "Powered", value: .bool(false))
    }

    /// The adapter goes away (InterfacesRemoved from bluetoothd's ObjectManager).
    func removeAdapter() async throws {
        try await connection.unexport(path: Self.adapterPath)
    }

    // MARK: - The central

    /// A central connects: its Device1 appears, then goes Connected=true, as in bluetoothd.
    func connectCentral() async throws {
        let handler: DBusMethodHandler = { [weak self] _ in
            guard let self else { return [] }
            await self.disconnectCentral(recording: true)
            return []
        }
        try await connection.export(DBusExportedObject(path: Self.centralPath, interfaces: [
            DBusExportedInterface(name: "org.bluez.Device1", methods: ["Disconnect": handler],
                                  properties: ["Address": .string("11:22:33:44:55:66"), "Connected": .bool(false)]),
        ]))
        try await connection.setProperty(path: Self.centralPath, interface: "org.bluez.Device1",
                                         name: "Connected", value: .bool(true))
    }

    /// The link goes down (Device1.Disconnect from the peripheral, or the central leaving).
    func disconnectCentral(recording: Bool = false) async {
        if recording { record("Disconnect \(Self.centralPath)") }
        try? await connection.setProperty(path: Self.centralPath, interface: "org.bluez.Device1",
                                          name: "Connected", value: .bool(false))
    }

    /// The path of the characteristic `id` in the registered application.
    func characteristicPath(_ id: CharacteristicID) throws -> String {
        let found = application.first { _, interfaces in
            (try? interfaces["org.bluez.GattCharacteristic1"]?["UUID"]?.asString()).flatMap(BluetoothUUID.init(string:)) == id.uuid
        }
        return try #require(found?.key, "no characteristic \(id) in \(application.keys.sorted())")
    }

    private func callCharacteristic(_ id: CharacteristicID, _ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        let destination = try #require(peripheral, "no application registered")
        return try await connection.call(destination: destination, path: try characteristicPath(id),
                                         interface: "org.bluez.GattCharacteristic1", member: member,
                                         arguments: arguments, timeout: .seconds(60))
    }

    /// A write from the central, as bluetoothd forwards it (no `type`: the flags say which).
    func write(_ bytes: [UInt8], to id: CharacteristicID = DeviceGATT.smpCharacteristic, mtu: UInt16 = 247) async throws {
        _ = try await callCharacteristic(id, "WriteValue", [
            .bytes(bytes),
            .properties(["device": .objectPath(Self.centralPath), "link": .string("LE"), "mtu": .uint16(mtu)]),
        ])
    }

    func read(_ id: CharacteristicID, offset: UInt16? = nil) async throws -> [UInt8] {
        var options: [String: DBusValue] = ["device": .objectPath(Self.centralPath), "mtu": .uint16(247)]
        if let offset { options["offset"] = .uint16(offset) }
        return try await callCharacteristic(id, "ReadValue", [.properties(options)]).argument(0).asBytes()
    }

    /// The central enables notifications (bluetoothd calls StartNotify on the CCC write).
    func startNotify(_ id: CharacteristicID = DeviceGATT.smpCharacteristic) async throws {
        _ = try await callCharacteristic(id, "StartNotify", [])
    }

    /// Notifications of a characteristic (the SMP one): the `Value` of each PropertiesChanged it emits.
    func notifications(of id: CharacteristicID = DeviceGATT.smpCharacteristic) async throws -> AsyncStream<[UInt8]> {
        let sender = try #require(peripheral, "no application registered")
        let signals = try await connection.signals(matching: DBusMatchRule(
            sender: sender, path: try characteristicPath(id),
            interface: DBusStandardInterface.properties, member: "PropertiesChanged"))
        return AsyncStream { continuation in
            let task = Task {
                for await signal in signals {
                    if let change = try? DBusPropertiesChanged(signal), let value = try? change.changed["Value"]?.asBytes() {
                        continuation.yield(value)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Asks the registered agent for the passkey of `device` (a Device1 path), as bluetoothd does
    /// for the responder's side of a pairing.
    func requestPasskey(for device: String) async throws -> UInt32 {
        guard let agent else { throw DBusError.remote(name: "org.bluez.Error.DoesNotExist", message: "no agent") }
        let reply = try await connection.call(destination: agent.owner, path: agent.path, interface: "org.bluez.Agent1",
                                              member: "RequestPasskey", arguments: [.objectPath(device)])
        return try reply.argument(0).asUInt32()
    }
}
