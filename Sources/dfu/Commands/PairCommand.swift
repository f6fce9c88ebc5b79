import ArgumentParsing
import BlueZTransport
import DFUCore
import ExitCodes
import Transport

/// `dfu pair --device DEVICE [--passkey N]`: pair and bond with a Bluetooth device once, so later
/// runs (a factory line's `dfu flash`, `dfu info`) use the bond and need no passkey.
struct PairCommand: DFUCommand {
    static let name = "pair"
    static let abstract = "Pair and bond with a Bluetooth device (once), with its passkey."
    static let discussion = """
        Connects through BlueZ and pairs with Device1.Pair under dfu's own agent: with --passkey N \
        it answers the device's passkey request with N (IO capability KeyboardOnly); without it, on \
        a terminal, it asks for the passkey the device shows, or whether a number matches (numeric \
        comparison). With neither, nothing is paired: exit 9. The bond is bluetoothd's, so every \
        later connection to the device is encrypted without an agent. A device already bonded is \
        left as it is ('dfu unpair' forgets a bond). The agent answers only for this device, and \
        passkeys never appear in logs or JSON.

        Examples:
          dfu pair --device C2:11:40:55:7A:01 --passkey 123456
          dfu pair --device name:sensor-12 --adapter hci1 --json

        Exit status:
          0    the device is bonded (now, or already)
          1    internal error (a bug in dfu)
          2    usage error
          5    the device cannot be reached, or BlueZ or the adapter cannot be used
          9    pairing failed (no passkey, a wrong one, rejected, timed out)
          130  interrupted by SIGINT or SIGTERM
        """

    var wait = ConnectTimeoutOption()

    var common = CommonOptions(json: .result)

    @OptionGroup(title: "DEVICE OPTIONS")
    var target = DeviceOptions()

    @Option(valueName: "N", help: "The device's six-digit passkey (000000-999999); without it, on a terminal dfu asks.")
    var passkey: Passkey?

    func validate() throws(UsageError) {
        try target.validate()
        try BondTarget.requireBluetooth(try target.spec, command: Self.name)
        try wait.validate()
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let console = console.verbose(common.verbose && !common.json)
        let label = target.displayName
        guard let result = await pair(console: console, label: label) else {
            console.error(GracefulInterruption.message)
            return .interrupted
        }
        return try BondOutput.finish(result, json: common.json, console: console,
                                     jsonLine: { BondOutput.pairJSON(device: target.recordName, $0) },
                                     text: { BondOutput.pairText(device: label, $0) })
    }

    /// nil: a SIGINT or SIGTERM cancelled it (the connection was closed first).
    private func pair(console: Console, label: String) async -> Result<LinkSecurity, DFUError>? {
        let pairing = BlueZPairing(input: PairingOptions.input(passkey: passkey), pairFirst: true)
        let central: BlueZCentral
        let connector: BlueZConnector
        do throws(BlueZError) {
            central = try await BlueZCentral.open(adapter: target.bluetooth.adapter)
            do throws(BlueZError) {
                connector = try await central.connector(expecting: DFUServiceIDs.updatable, pairing: pairing,
                                                        log: { console.log($0) })
            } catch {
                central.close()
                throw error
            }
        } catch {
            return .failure(.deviceUnreachable(error.description))
        }
        let peer = PeerIdentity((try? target.spec)?.description ?? target.device)
        let deadline = ContinuousClock.now.advanced(by: wait.duration)
        let connecting = Task { () -> Result<LinkSecurity, DFUError> in
            do throws(LinkError) {
                let link = try await connector.connect(to: peer, deadline: deadline)
                let security = link.parameters.security ?? .open
                await link.disconnect()
                return .success(security)
            } catch {
                return .failure(.connectFailed(label, error))
            }
        }
        let interruption = GracefulInterruption { connecting.cancel() }
        let result = await connecting.value
        await connector.releaseAgent()
        central.close()
        interruption.finish()
        return interruption.wasInterrupted ? nil : result
    }
}
