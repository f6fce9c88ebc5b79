import ArgumentParsing

/// Flags for the commands that talk to one device (`flash`, `info`): the adapter, and whether
/// output shows Bluetooth addresses in full. A group of its own, not part of `CommonOptions`,
/// because `verify` works offline and must not accept them. Waits are each command's own
/// (`flash --connect-timeout`), named after what they wait for.
struct BluetoothOptions: ParsableArguments {
    var selection = AdapterOption()

    // A flag rather than part of --verbose: verbose logs get pasted into bug reports, and asking
    // for detail should not also publish the address that tracks someone's device.
    @Flag(help: "Show Bluetooth addresses in full instead of shortened (…:EE:FF).")
    var fullAddresses = false

    init() {}

    /// `--adapter`, nil when not given.
    var adapter: String? { selection.adapter }

    /// Called from the command's `validate()`: groups have none of their own.
    func validate() throws(UsageError) {
        try selection.validate()
    }
}
