/// How to reach the one device a command works on (`flash`, `info`): `--device` plus the adapter
/// flags. `scan`, which looks for devices, takes `BluetoothOptions` alone.
///
///     struct FlashCommand: ParsableCommand {
///         var target = DeviceOptions()
///         var common = CommonOptions()
///         func validate() throws(UsageError) { try target.validate() }
///     }
struct DeviceOptions: ParsableArguments {
    @Option(valueName: "DEVICE",
            help: "The device: sim[:KEY=VALUE,…] (the built-in virtual device) or udp:HOST:PORT (an SMP server over UDP). A Bluetooth address or name:NAME is refused until BlueZ is supported.")
    var device: String

    var bluetooth = BluetoothOptions()

    init() {}

    func validate() throws(UsageError) {
        _ = try spec
        try bluetooth.validate()
    }

    /// `--device` parsed. After `validate()` this no longer throws.
    var spec: DeviceSpec {
        get throws(UsageError) { try DeviceSpec(parsing: device) }
    }

    /// The device as output names it: `…:EE:FF` unless `--full-addresses`. Before `validate()` a
    /// `--device` that does not parse is shown as typed.
    var displayName: String {
        guard let spec = try? spec else { return device }
        return spec.displayName(fullAddresses: bluetooth.fullAddresses)
    }
}
