/// The names bluetoothd's D-Bus API uses (BlueZ 5.66 doc/adapter-api.txt, device-api.txt,
/// gatt-api.txt, agent-api.txt, advertising-api.txt; bluez-dbus.md §1): the central side's here,
/// and the peripheral side's that `DeviceSim` serves with. One table for both, so they cannot drift.
package enum BlueZNames {
    package static let service = "org.bluez"
    package static let adapter = "org.bluez.Adapter1"
    package static let device = "org.bluez.Device1"
    package static let agentManager = "org.bluez.AgentManager1"
    package static let agent = "org.bluez.Agent1"
    /// AgentManager1's object.
    package static let agentManagerPath = "/org/bluez"
    package static let gattService = "org.bluez.GattService1"
    package static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    package static let gattManager = "org.bluez.GattManager1"
    package static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    package static let advertisement = "org.bluez.LEAdvertisement1"

    /// The adapter's object: `/org/bluez/hci0`.
    package static func adapterPath(_ adapter: String) -> String { "/org/bluez/" + adapter }

    /// Error names an application answers bluetoothd with; bluetoothd turns them into ATT errors
    /// (gatt-database.c `dbus_error_to_att_ecode`: NotPermitted → read/write not permitted,
    /// InvalidOffset → invalid offset).
    package enum Error {
        package static let notPermitted = "org.bluez.Error.NotPermitted"
        package static let invalidOffset = "org.bluez.Error.InvalidOffset"
        package static let invalidArguments = "org.bluez.Error.InvalidArguments"
        package static let notSupported = "org.bluez.Error.NotSupported"
        package static let failed = "org.bluez.Error.Failed"
    }
}
