import ArgumentParsing

/// `--adapter hciN`: the BlueZ adapter a command uses for Bluetooth. A group of its own because
/// `scan` takes it without `--full-addresses` (scan prints addresses in full: see `ScanCommand`);
/// `flash` and `info` get it inside `BluetoothOptions`.
struct AdapterOption: ParsableArguments {
    @Option(valueName: "hciN",
            help: "BlueZ adapter for Bluetooth devices, e.g. hci1 ('bluetoothctl list'); by default the first powered one.")
    var adapter: String?

    init() {}

    /// Called from the command's `validate()`: groups have none of their own.
    func validate() throws(UsageError) {
        if let adapter { try Self.check(adapter) }
    }

    /// Refuses a name that is not an adapter's (also `dfu batch`'s repeated `--adapter`).
    static func check(_ name: String) throws(UsageError) {
        guard isAdapterName(name) else {
            throw UsageError("invalid --adapter '\(name)': expected a BlueZ adapter name such as hci0 (see 'bluetoothctl list')")
        }
    }

    /// `hci` and a number: the object name BlueZ gives an adapter (`/org/bluez/hci0`).
    private static func isAdapterName(_ name: String) -> Bool {
        guard name.hasPrefix("hci") else { return false }
        let number = name.dropFirst(3)
        return !number.isEmpty && number.count <= 3 && number.allSatisfy { $0.isASCII && $0.isWholeNumber }
    }
}
