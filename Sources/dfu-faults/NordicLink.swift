import DFUCore
import DeviceSim
import Transport

/// What a Nordic run's engine reaches the virtual nRF52 through: the memory connector it is served
/// on, or the BlueZ stand-in hearing both its identities (the application, and the bootloader at
/// the address + 1, each heard only while the model advertises there) and dfu's BlueZ central.
struct NordicLink {
    let connector: any Connector
    /// Ends the bus, the stand-in and the central; nothing in memory.
    let stop: @Sendable () async -> Void

    static func serve(_ peripheral: VirtualNordicPeripheral, on connector: MemoryConnector, over link: FaultLink,
                      scenario: String) async throws(FaultsError) -> NordicLink {
        switch link {
        case .memory:
            return NordicLink(connector: connector, stop: {})
        case .bluez:
            let services = [DFUServiceIDs.nordicSecureDFU]
            let bus = try await BlueZBus.serve([
                BlueZBus.device(peripheral.applicationIdentity, name: "dfu-faults-nrf52", services: services, on: connector),
                BlueZBus.device(peripheral.bootloaderIdentity, name: "DfuTarg", services: services, on: connector),
            ], scenario: scenario)
            return NordicLink(connector: bus.connector, stop: { await bus.stop() })
        case .udp, .serial, .process:
            // Over serial the device has a server of its own (`NordicSerialScenarioRun`).
            throw .setup("scenario \(scenario): this Nordic run is in memory or over BlueZ, not over \(link.rawValue)")
        }
    }
}
