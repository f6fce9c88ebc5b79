import DFUCore
import DeviceSim
import ExitCodes
import Transport

/// `dfu sim --serve bluez:hciN`.
extension SimCommand {
    func serveBlueZ(_ options: SimOptions, adapter: String, pairing: PeripheralSecurity.Pairing, console: Console,
                    signals: StopSignals) async throws(DFUError) -> ExitStatus {
        let fullAddresses = self.fullAddresses
        let peripheral: BlueZPeripheral
        do throws(BlueZServeError) {
            peripheral = try await BlueZPeripheral.serve(options, adapter: adapter, name: name, pairing: pairing) { event in
                let line = event.description(fullAddresses: fullAddresses)
                if event.isLifecycle {
                    console.out("dfu sim: \(line)")
                } else {
                    console.log("sim: \(line)")
                }
            }
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

    /// Option problems are usage errors (2); everything else is BlueZ being unusable (5).
    private static func failure(_ error: BlueZServeError, device: SimDeviceFlags) -> DFUError {
        if case .options(let optionsError) = error { return .usage(device.usageError(optionsError).message) }
        return .deviceUnreachable(error.description)
    }
}
