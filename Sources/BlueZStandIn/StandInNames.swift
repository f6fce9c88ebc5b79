import Foundation

/// Interface names and object paths as bluetoothd 5.66 uses them (bluez-dbus.md §1.1).
enum StandInName {
    static let service = "org.bluez"
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let gattService = "org.bluez.GattService1"
    static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    static let gattDescriptor = "org.bluez.GattDescriptor1"
    static let agentManager = "org.bluez.AgentManager1"
    static let profileManager = "org.bluez.ProfileManager1"
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"

    static func adapterPath(_ name: String) -> String { "/org/bluez/" + name }

    /// `<adapter>/dev_AA_BB_CC_DD_EE_FF` (device.c: address upper case, ':' → '_').
    static func devicePath(adapter: String, address: String) -> String {
        adapterPath(adapter) + "/dev_" + address.uppercased().replacingOccurrences(of: ":", with: "_")
    }

    /// Four lower-case hex digits of an ATT handle, as gatt-client.c prints them.
    static func handle(_ value: Int) -> String {
        let hex = String(value & 0xFFFF, radix: 16)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
