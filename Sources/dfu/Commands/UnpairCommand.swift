import ArgumentParsing
import BlueZTransport
import DFUCore
import ExitCodes
import Transport

/// `dfu unpair --device DEVICE`: forget a device's bond (BlueZ `Adapter1.RemoveDevice`), e.g.
/// before a unit is re-provisioned, or when its bond is stale (a factory image erased the device's
/// keys) or not authenticated (paired with Just Works).
struct UnpairCommand: DFUCommand {
    static let name = "unpair"
    static let abstract = "Forget a Bluetooth device's bond (bluetoothd removes its keys)."
    static let discussion = """
        Removes the device from bluetoothd on the adapter, keys and all, as 'bluetoothctl remove' \
        does; the next connection to it is unpaired, and pairs again when the device asks (with \
        --passkey). A device bluetoothd does not know is not an error: there is nothing to forget. \
        name:NAME forgets every known device with that advertised name.

        Examples:
          dfu unpair --device C2:11:40:55:7A:01
          dfu unpair --device name:sensor-12 --adapter hci1 --json

        Exit status:
          0    the bond is gone (or there was none)
          1    internal error (a bug in dfu)
          2    usage error
          5    BlueZ or the adapter cannot be used
        """

    var common = CommonOptions(json: .result)

    @OptionGroup(title: "DEVICE OPTIONS")
    var target = DeviceOptions()

    func validate() throws(UsageError) {
        try target.validate()
        try BondTarget.requireBluetooth(try target.spec, command: Self.name)
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let console = console.verbose(common.verbose && !common.json)
        let label = target.displayName
        let result: Result<BlueZCentral.Forgotten, DFUError>
        do throws(BlueZError) {
            let central = try await BlueZCentral.open(adapter: target.bluetooth.adapter)
            defer { central.close() }
            console.log("forgetting \(label) on \(central.adapterName)")
            result = .success(try await central.forget(PeerIdentity((try? target.spec)?.description ?? target.device)))
        } catch {
            result = .failure(.deviceUnreachable(error.description))
        }
        return try BondOutput.finish(result, json: common.json, console: console,
                                     jsonLine: { BondOutput.unpairJSON(device: target.recordName, $0) },
                                     text: { BondOutput.unpairText(device: label, $0) })
    }
}
