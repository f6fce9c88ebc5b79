import BlueZTransport
import DBusBinding
import Transport

/// The LEAdvertisement1 object registered with LEAdvertisingManager1: a connectable
/// ("peripheral"), general-discoverable advertisement carrying the device's service UUID (SMP's,
/// or Nordic DFU's 0xFE59), with the name in the scan response (BlueZ 5.66 advertising.c puts
/// `LocalName` there for legacy advertising; 3 bytes of flags and 18 of 128-bit UUID leave no room
/// in the advertising data). Exported again before each registration, as the name and service
/// may have changed (a Nordic bootloader).
struct PeripheralAdvertisement: Sendable {
    /// A scan response holds 31 bytes; the name's AD structure takes 2 of them.
    static let maximumNameBytes = 29

    let path: String
    let name: String
    let service: ServiceID

    var properties: [String: DBusValue] {
        [
            "Type": .string("peripheral"),
            "ServiceUUIDs": .strings([service.uuid.description]),
            "LocalName": .string(name),
            "Discoverable": .bool(true),
        ]
    }

    /// `Release` (bluetoothd dropped the advertisement by itself) goes to `handler`.
    func object(handler: @escaping DBusMethodHandler) -> DBusExportedObject {
        DBusExportedObject(path: path, interfaces: [
            DBusExportedInterface(name: BlueZNames.advertisement, methods: ["Release": handler], properties: properties,
                                  signatures: ["Release": DBusMethodSignature()]),
        ])
    }

    /// `dfu-sim-` and the last four hex digits of the device identity (`…:EE:FF` gives
    /// `dfu-sim-EEFF`); for an identity that is not an address, its last four letters or digits.
    static func defaultName(for identity: PeerIdentity) -> String {
        let characters = identity.rawValue.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return "dfu-sim-" + String(characters.suffix(4)).uppercased()
    }

    /// Why `name` cannot be advertised whole, or nil when it can.
    static func problem(with name: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        let bytes = name.utf8.count
        if bytes > maximumNameBytes {
            return "'\(name)' is \(bytes) bytes; a BLE scan response holds at most \(maximumNameBytes)"
        }
        return nil
    }
}
