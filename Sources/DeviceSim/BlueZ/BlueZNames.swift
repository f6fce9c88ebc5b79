/// The names bluetoothd's D-Bus API uses on the peripheral side (BlueZ 5.66 doc/gatt-api.txt,
/// doc/advertising-api.txt, doc/adapter-api.txt, doc/device-api.txt).
enum BlueZNames {
    static let service = "org.bluez"
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let gattManager = "org.bluez.GattManager1"
    static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    static let gattService = "org.bluez.GattService1"
    static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    static let advertisement = "org.bluez.LEAdvertisement1"

    /// The adapter's object: `/org/bluez/hci0`.
    static func adapterPath(_ adapter: String) -> String { "/org/bluez/" + adapter }

    /// Error names an application answers bluetoothd with; bluetoothd turns them into ATT errors
    /// (gatt-database.c `dbus_error_to_att_ecode`: NotPermitted → read/write not permitted,
    /// InvalidOffset → invalid offset).
    enum Error {
        static let notPermitted = "org.bluez.Error.NotPermitted"
        static let invalidOffset = "org.bluez.Error.InvalidOffset"
        static let invalidArguments = "org.bluez.Error.InvalidArguments"
        static let notSupported = "org.bluez.Error.NotSupported"
        static let failed = "org.bluez.Error.Failed"
    }
}
