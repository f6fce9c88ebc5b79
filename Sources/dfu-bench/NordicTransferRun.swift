import DFUCore
import DeviceSim
import Transport

/// One measured Nordic Secure DFU transfer: a fresh virtual nRF52 put into its bootloader, a
/// connection to it through `NordicWireTap`, and `NordicSession.transfer` with the profile's PRN,
/// as `NordicUpdateSession` runs it after the buttonless jump.
struct NordicTransferRun {
    let profile: NordicBenchProfile
    let package: NordicPackageFile

    static let connectTimeout = Duration.seconds(10)
    /// The version in the sample package; the run counts only if the device then runs it.
    static let expectedVersion: UInt32 = 3

    func measure() async throws -> NordicRunMeasurement {
        let clock = LinkClock.realTime()
        let connector = MemoryConnector(clock: clock)
        let options = try SimOptions.parse("sim:protocol=nordic,inactivity=off")
        let peripheral = VirtualNordicPeripheral(device: try options.makeNordicDevice(), clock: clock, connector: connector)
        await connector.register(peripheral, as: peripheral.applicationIdentity, profile: profile.link)
        await connector.register(peripheral, as: peripheral.bootloaderIdentity, profile: profile.link, advertising: false)
        await peripheral.powerCycle(enterBootloader: true)
        let link = try await connector.connect(to: peripheral.bootloaderIdentity, deadline: .now + Self.connectTimeout)
        guard let memoryLink = link as? MemoryLink else { throw BenchError.setup("the connector did not give a memory link") }
        let tap = NordicWireTap(memoryLink)
        let session = try await NordicSession(link: tap, clock: clock)
        let configuration = NordicTransferConfiguration(
            packetSize: NordicTransferConfiguration.packetSize(attMTU: link.parameters.attMTU),
            packetReceiptNotification: profile.packetReceiptNotification)
        let outcome: Result<NordicTransferCompletion, any Error>
        do {
            outcome = .success(try await session.transfer(initPacket: package.initPacket, firmware: package.firmware,
                                                          configuration: configuration) { _ in })
        } catch {
            outcome = .failure(error)
        }
        let radio = await memoryLink.statistics()
        await session.close()
        await memoryLink.disconnect()
        guard case .validated = try outcome.get() else { throw BenchError.setup("the final Execute was not answered") }
        guard try await runsNewVersion(peripheral) else {
            throw BenchError.setup("the device does not run version \(Self.expectedVersion) after the transfer")
        }
        return try NordicRunMeasurement(profile: profile, firmwareBytes: package.firmware.count,
                                        exchanges: tap.exchanges, radio: radio)
    }

    /// The bootloader activates and boots the application (300 ms); waits up to 5 s for it.
    private func runsNewVersion(_ peripheral: VirtualNordicPeripheral) async throws -> Bool {
        for _ in 0 ..< 50 {
            let device = await peripheral.snapshot
            if device.currentIdentity == peripheral.applicationIdentity, device.applicationVersion == Self.expectedVersion {
                return true
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
