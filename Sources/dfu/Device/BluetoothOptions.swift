/// Flags for every command that uses the Bluetooth adapter (`flash`, `info`, `scan`). A group of
/// its own, not part of `CommonOptions`, because `verify` works offline and must not accept them.
struct BluetoothOptions: ParsableArguments {
    @Option(valueName: "hciN", help: "BlueZ adapter to use, e.g. hci0 (default: the first powered one).")
    var adapter: String?

    @Option(valueName: "SECONDS", help: "Seconds to wait to find the device and to connect.")
    var timeout = 20.0

    // A flag rather than part of --verbose: verbose logs get pasted into bug reports, and asking
    // for detail should not also publish the address that tracks someone's device.
    @Flag(help: "Show Bluetooth addresses in full instead of shortened (…:EE:FF).")
    var fullAddresses = false

    /// The longest wait that is still a timeout and not a typo (an hour).
    static let maximumTimeout = 3600.0

    init() {}

    /// Called from the command's `validate()`: groups have none of their own.
    func validate() throws(UsageError) {
        if let adapter, !Self.isAdapterName(adapter) {
            throw UsageError("invalid --adapter '\(adapter)': expected a BlueZ adapter name such as hci0 (see 'bluetoothctl list')")
        }
        guard timeout > 0, timeout <= Self.maximumTimeout else {
            throw UsageError("--timeout must be more than 0 and at most \(Int(Self.maximumTimeout)) seconds")
        }
    }

    /// `--timeout` as a `Duration`, to the millisecond. Valid after `validate()`.
    var timeoutDuration: Duration {
        .milliseconds(Int((min(max(timeout, 0), Self.maximumTimeout) * 1000).rounded()))
    }

    /// `hci` and a number: the object name BlueZ gives an adapter (`/org/bluez/hci0`).
    private static func isAdapterName(_ name: String) -> Bool {
        guard name.hasPrefix("hci") else { return false }
        let number = name.dropFirst(3)
        return !number.isEmpty && number.count <= 3 && number.allSatisfy { $0.isASCII && $0.isWholeNumber }
    }
}
