import DFUCore
import DeviceSim
import ExitCodes
import Transport

/// `dfu sim --serve bluez:hciN`.
extension SimCommand {
    func serveBlueZ(_ options: SimOptions, adapter: String, pairing: PeripheralSecurity.Pairing, console: Console,
                    signals: StopSignals) async throws(DFUError) -> ExitStatus {
        let observer = printer(console)
        return try await serve(options, console: console, signals: signals) { () async throws(BlueZServeError) in
            try await BlueZPeripheral.serve(options, adapter: adapter, name: name, pairing: pairing,
                                            readvertiseEvery: readvertiseEvery, observer: observer)
        } ready: { peripheral, address in
            let device = await peripheral.snapshot
            return "SMP over BLE on \(adapter) as \(peripheral.name) (address \(address), device \(device.identity), "
                + "version \(device.runningVersionText); " + pairing.security.describe(passkey: pairing.passkey) + ")"
        }
    }

    /// `--protocol nordic`: the nRF52's application (buttonless DFU), then its bootloader at the
    /// same address under its own name (`DfuTarg`, or what the central set with buttonless).
    func serveNordicBlueZ(_ options: SimOptions, adapter: String, bootloaderAdapter: String?, console: Console,
                          signals: StopSignals) async throws(DFUError) -> ExitStatus {
        let observer = printer(console)
        return try await serve(options, console: console, signals: signals) { () async throws(BlueZServeError) in
            try await BlueZPeripheral.serveNordic(options, adapter: adapter, bootloaderAdapter: bootloaderAdapter,
                                                  name: name, readvertiseEvery: readvertiseEvery, observer: observer)
        } ready: { peripheral, address in
            let device = await peripheral.snapshot
            let place = bootloaderAdapter.map { "on \($0), at that adapter's address," } ?? "at the same address"
            return "Nordic Secure DFU over BLE on \(adapter) as \(peripheral.name) (address \(address), device "
                + "\(device.applicationIdentity), application version \(NordicAppVersion.text(device.applicationVersion)); "
                + "its bootloader answers \(place) as \(device.bootloaderName) or the name a central gives it)"
        }
    }

    /// `--readvertise` as a duration.
    private var readvertiseEvery: Duration? { readvertise.map { .milliseconds(Int64(($0 * 1000).rounded())) } }

    /// Starts the server, prints `dfu sim: serving ` and what `ready` says, and serves until a stop
    /// signal (exit 0) or the server's own end (exit 5 with why).
    private func serve<Model: PeripheralModel>(
        _ options: SimOptions, console: Console, signals: StopSignals,
        start: () async throws(BlueZServeError) -> BlueZPeripheral<Model>,
        ready: (BlueZPeripheral<Model>, _ address: String) async -> String) async throws(DFUError) -> ExitStatus {
        let peripheral: BlueZPeripheral<Model>
        do throws(BlueZServeError) {
            peripheral = try await start()
        } catch {
            throw Self.failure(error, device: device)
        }
        let address = fullAddresses ? peripheral.address : PeerIdentity(peripheral.address).redacted
        console.out("dfu sim: serving " + (await ready(peripheral, address)))
        if await peripheral.serveUntilStopped(options: options, console: console, signals: signals) { return .success }
        throw Self.failure(await peripheral.failure ?? .busLost, device: device)
    }

    /// The device's life on stdout, its traffic on stderr with --verbose.
    private func printer(_ console: Console) -> @Sendable (BlueZPeripheralEvent) -> Void {
        let fullAddresses = self.fullAddresses
        return { event in
            let line = event.description(fullAddresses: fullAddresses)
            if event.isLifecycle {
                console.out("dfu sim: \(line)")
            } else {
                console.log("sim: \(line)")
            }
        }
    }

    /// Option problems are usage errors (2); everything else is BlueZ being unusable (5).
    private static func failure(_ error: BlueZServeError, device: SimDeviceFlags) -> DFUError {
        if case .options(let optionsError) = error { return .usage(device.usageError(optionsError).message) }
        return .deviceUnreachable(error.description)
    }
}
