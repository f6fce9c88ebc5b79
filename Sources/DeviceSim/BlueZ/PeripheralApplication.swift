import BlueZTransport
import DBusBinding
import Transport

/// One of the virtual device's GATT databases (`PeripheralModel.databases`) as a BlueZ GATT application: one
/// object per service and characteristic below an ObjectManager root, the shape
/// GattManager1.RegisterApplication reads (doc/gatt-api.txt, "GATT Application hierarchy").
///
/// Characteristics offer exactly the flags `DeviceGATT` gives them. None offers `WriteAcquired`
/// or `NotifyAcquired`: with `WriteAcquired`, bluetoothd 5.66 hands writes over an AcquireWrite
/// socket whose first burst arrives corrupted (reference §8), and with neither, every Write
/// Command comes as one WriteValue call and every notification goes out as a PropertiesChanged
/// of `Value`.
struct PeripheralApplication: Sendable {
    struct Characteristic: Sendable, Hashable {
        let id: CharacteristicID
        let path: String
        let flags: [String]
    }

    /// The ObjectManager root passed to RegisterApplication.
    let root: String
    let characteristics: [Characteristic]
    private let services: [(path: String, id: ServiceID, characteristics: [Characteristic])]

    /// `root` must be a valid object path no other object of the connection uses. `security`
    /// guards the `secured` characteristics (value and CCC; the SMP one); the others stay open.
    init(root: String, services: [GATTService] = DeviceGATT.services, security: PeripheralSecurity = .open,
         secured: Set<CharacteristicID> = [DeviceGATT.smpCharacteristic]) {
        self.root = root
        var laidOut: [(path: String, id: ServiceID, characteristics: [Characteristic])] = []
        for (serviceIndex, service) in services.enumerated() {
            let servicePath = "\(root)/service\(serviceIndex)"
            let characteristics = service.characteristics.enumerated().map { index, characteristic in
                let flags = Self.flags(characteristic.properties)
                return Characteristic(id: characteristic.id, path: "\(servicePath)/char\(index)",
                                      flags: secured.contains(characteristic.id) ? security.flags(forSMP: flags) : flags)
            }
            laidOut.append((servicePath, service.id, characteristics))
        }
        self.services = laidOut
        characteristics = laidOut.flatMap(\.characteristics)
    }

    func characteristic(at path: String) -> Characteristic? {
        characteristics.first { $0.path == path }
    }

    func path(of id: CharacteristicID) -> String? {
        characteristics.first { $0.id == id }?.path
    }

    /// A Write Request unless the characteristic takes Write Commands: bluetoothd 5.66 passes no
    /// `type` option to an application, so its flags are all there is to go by.
    func takesRequests(_ characteristic: Characteristic) -> Bool {
        !characteristic.flags.contains("write-without-response")
    }

    /// The objects to export: services with `UUID` and `Primary`, characteristics with `UUID`,
    /// `Service` and `Flags`, each characteristic's methods answered by `handler`.
    func objects(handler: @escaping DBusMethodHandler) -> [DBusExportedObject] {
        var objects: [DBusExportedObject] = []
        for service in services {
            objects.append(DBusExportedObject(path: service.path, interfaces: [
                DBusExportedInterface(name: BlueZNames.gattService, properties: [
                    "UUID": .string(service.id.uuid.description),
                    "Primary": .bool(true),
                ]),
            ]))
            for characteristic in service.characteristics {
                objects.append(DBusExportedObject(path: characteristic.path, interfaces: [
                    DBusExportedInterface(
                        name: BlueZNames.gattCharacteristic,
                        methods: Self.characteristicMethods.mapValues { _ in handler },
                        properties: [
                            "UUID": .string(characteristic.id.uuid.description),
                            "Service": .objectPath(service.path),
                            "Flags": .strings(characteristic.flags),
                        ],
                        signatures: Self.characteristicMethods),
                ]))
            }
        }
        return objects
    }

    /// The GattCharacteristic1 methods a characteristic answers, with their signatures
    /// (doc/gatt-api.txt) so that Introspect lists their arguments.
    static let characteristicMethods: [String: DBusMethodSignature] = [
        "ReadValue": DBusMethodSignature(arguments: "a{sv}", reply: "ay"),
        "WriteValue": DBusMethodSignature(arguments: "aya{sv}"),
        "StartNotify": DBusMethodSignature(),
        "StopNotify": DBusMethodSignature(),
        // bluetoothd calls it when a central confirms an indication (5.66 gatt-database.c `conf_cb`).
        "Confirm": DBusMethodSignature(),
    ]

    /// BlueZ's flag strings (doc/gatt-api.txt) for the properties dfu uses.
    static func flags(_ properties: CharacteristicProperties) -> [String] {
        let names: [(CharacteristicProperties, String)] = [
            (.read, "read"), (.write, "write"), (.writeWithoutResponse, "write-without-response"), (.notify, "notify"),
            (.indicate, "indicate"),
        ]
        return names.filter { properties.contains($0.0) }.map(\.1)
    }
}
