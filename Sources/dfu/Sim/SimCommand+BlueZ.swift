import DFUCore
import DeviceSim
import ExitCodes
import Transport

/// `dfu sim --serve bluez:hciN`.
extension SimCommand {
    func serveBlueZ(_ options: SimOptions, adapter: String, pairing: PeripheralSecurity.Pairing, console: Console,
                    signals: StopSignals) async throws(DFUError) -> ExitStatus {
        let peripheral: BlueZPeripheral<SMPPeripheralModel>
        do throws(BlueZServeError) {
            peripheral = try await BlueZPeripheral.serve(options, adapter: adapter, name: name, pairing: pairing,
                                                         observer: printer(console))
        } catch {
            throw Self.failure(error, device: device)
        }
        let device = await peripheral.snapshot
        let address = fullAddresses ? peripheral.address : PeerIdentity(peripheral.address).redacted
        console.out("dfu sim: serving SMP over BLE on \(adapter) as \(peripheral.name) "
            + "(address \(address), device \(device.identity), version \(device.firmwareRevision); "
            + pairing.security.describe(passkey: pairing.passkey) + ")")
        if await peripheral.serveUntilStopped(options: options, console: console, signals: signals) { return .success }
        throw Self.failure(await peripheral.failure ?? .busLost, device: self.device)
    }

    /// `--protocol nordic`: the nRF52's application (buttonless DFU), then its bootloader at the
    /// same address under its own name (`DfuTarg`, or what the central set with buttonless).
    func serveNordicBlueZ(_ options: SimOptions, adapter: String, console: Console,
                          signals: StopSignals) async throws(DFUError) -> ExitStatus {
        let peripheral: BlueZPeripheral<NordicPeripheralModel>
        do throws(BlueZServeError) {
            peripheral = try await BlueZPeripheral.serveNordic(options, adapter: adapter, name: name, observer: printer(console))
        } catch {
            throw Self.failure(error, device: device)
        }
        let device = await peripheral.snapshot
        let address = fullAddresses ? peripheral.address : PeerIdentity(peripheral.address).redacted
        console.out("dfu sim: serving Nordic Secure DFU over BLE on \(adapter) as \(peripheral.name) "
            + "(address \(address), device \(device.applicationIdentity), application version "
            + "\(NordicAppVersion.text(device.applicationVersion)); its bootloader answers at the same address as "
            + "\(device.bootloaderName))")
        if await peripheral.serveUntilStopped(options: options, console: console, signals: signals) { return .success }
        throw Self.failure(await peripheral.failure ?? .busLost, device: self.device)
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
