/// bluetoothd's bus name and the interfaces we read (bluez-dbus.md §1).
enum BlueZName {
    static let service = "org.bluez"
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let agentManager = "org.bluez.AgentManager1"
    static let agent = "org.bluez.Agent1"
    /// AgentManager1's object.
    static let agentManagerPath = "/org/bluez"
    static let gattService = "org.bluez.GattService1"
    static let gattCharacteristic = "org.bluez.GattCharacteristic1"
}
