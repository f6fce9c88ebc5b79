import ArgumentParsing

/// How to reach the one device a command works on (`flash`, `info`): `--device` plus the adapter
/// flags. `scan`, which looks for devices, takes `AdapterOption` alone.
///
///     struct FlashCommand: DFUCommand {
///         var target = DeviceOptions()
///         var common = CommonOptions()
///         func validate() throws(UsageError) { try target.validate() }
///     }
struct DeviceOptions: ParsableArguments {
    @Option(valueName: "DEVICE",
            help: "The device: a Bluetooth address (AA:BB:CC:DD:EE:FF, as 'dfu scan' lists it) or name:NAME (its advertised name), through BlueZ; sim[:KEY=VALUE,…], the built-in virtual device; udp:HOST:PORT, an SMP server over UDP; or serial:PATH[,baud=N,raw,recovery,rtscts], a device on a serial port.")
    var device: String

    var bluetooth = BluetoothOptions()

    init() {}

    /// Parses `--device` and checks the adapter flags; `--adapter` only applies to a Bluetooth
    /// device (a sim, UDP or serial device does not use one, and silently ignoring it would hide a mistake).
    func validate() throws(UsageError) {
        let spec = try spec
        try bluetooth.validate()
        switch spec {
        case .address, .name:
            break
        case .simulator, .udp, .serial:
            if bluetooth.adapter != nil {
                throw UsageError("--adapter selects a Bluetooth adapter; it does not apply to --device \(spec)")
            }
        }
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

    /// The device in full, as `--device` takes it: how JSON records name it (never shortened).
    var recordName: String { (try? spec)?.description ?? device }
}
