/// Flags for every command that uses the Bluetooth adapter (`flash`, `info`, `scan`). A group of
/// its own, not part of `CommonOptions`, because `verify` works offline and must not accept them.
/// Waits are each command's own (`flash --connect-timeout`), named after what they wait for.
struct BluetoothOptions: ParsableArguments {
    @Option(valueName: "hciN", help: "BlueZ adapter, e.g. hci0, for Bluetooth devices (not supported yet).")
    var adapter: String?

    // A flag rather than part of --verbose: verbose logs get pasted into bug reports, and asking
    // for detail should not also publish the address that tracks someone's device.
    @Flag(help: "Show Bluetooth addresses in full instead of shortened (…:EE:FF).")
    var fullAddresses = false

    init() {}

    /// Called from the command's `validate()`: groups have none of their own.
    func validate() throws(UsageError) {
        if let adapter, !Self.isAdapterName(adapter) {
            throw UsageError("invalid --adapter '\(adapter)': expected a BlueZ adapter name such as hci0 (see 'bluetoothctl list')")
        }
    }

    /// `hci` and a number: the object name BlueZ gives an adapter (`/org/bluez/hci0`).
    private static func isAdapterName(_ name: String) -> Bool {
        guard name.hasPrefix("hci") else { return false }
        let number = name.dropFirst(3)
        return !number.isEmpty && number.count <= 3 && number.allSatisfy { $0.isASCII && $0.isWholeNumber }
    }
}
