import DBusBinding
import DFUCore
import Transport

/// The devices `dfu sim --serve bluez:` offers, built from the `sim:` options.
extension BlueZPeripheral where Model == SMPPeripheralModel {
    /// The Zephyr device `options` describe (MCUmgr SMP on MCUboot).
    public static func serve(_ options: SimOptions, adapter: String, name: String? = nil,
                             pairing: PeripheralSecurity.Pairing = PeripheralSecurity.Pairing(),
                             readvertiseEvery: Duration? = nil,
                             bus: DBusBusAddress = .system, clock: LinkClock = .realTime(),
                             observer: @escaping @Sendable (BlueZPeripheralEvent) -> Void = { _ in })
        async throws(BlueZServeError) -> BlueZPeripheral {
        let device: VirtualDevice
        do throws(SimOptionsError) {
            device = try options.makeDevice()
        } catch {
            throw .options(error)
        }
        return try await serve(SMPPeripheralModel(device: device), adapter: adapter, name: name, pairing: pairing,
                               readvertiseEvery: readvertiseEvery, bus: bus, clock: clock, observer: observer)
    }

    /// The device as it is now (a copy): slots, upload session, boots, battery.
    public var snapshot: VirtualDevice { model.device }
}

extension BlueZPeripheral where Model == NordicPeripheralModel {
    /// The nRF52 `options` describe (`protocol=nordic`): its application with buttonless DFU, and
    /// its secure bootloader after a buttonless request, at the same address (§10.7), or on
    /// `bootloaderAdapter` (at that adapter's address: one a central cannot derive).
    public static func serveNordic(_ options: SimOptions, adapter: String, bootloaderAdapter: String? = nil,
                                   name: String? = nil, readvertiseEvery: Duration? = nil,
                                   bus: DBusBusAddress = .system, clock: LinkClock = .realTime(),
                                   observer: @escaping @Sendable (BlueZPeripheralEvent) -> Void = { _ in })
        async throws(BlueZServeError) -> BlueZPeripheral {
        let device: NordicVirtualDevice
        do throws(SimOptionsError) {
            device = try options.makeNordicDevice()
        } catch {
            throw .options(error)
        }
        let model = NordicPeripheralModel(device: device)
        let others = bootloaderAdapter.map { [NordicPeripheralModel.bootloaderDatabase: $0] } ?? [:]
        return try await serve(model, adapter: adapter, otherAdapters: others, name: name,
                               readvertiseEvery: readvertiseEvery, bus: bus, clock: clock, observer: observer)
    }

    /// The device as it is now (a copy): mode, settings, boots.
    public var snapshot: NordicVirtualDevice { model.device }
}
