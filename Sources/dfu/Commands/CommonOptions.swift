/// Flags every command shares. Flags for talking to a device (`--device`, `--adapter`, `--timeout`,
/// `--full-addresses`) are in `DeviceOptions` and `BluetoothOptions` instead: `verify` works
/// offline and must not accept them.
struct CommonOptions: ParsableArguments {
    @Flag(help: "Print the result as one JSON object on one line of stdout instead of text.")
    var json = false

    @Flag(short: "v", help: "Log each step on stderr (never key material or image bytes).")
    var verbose = false
}
