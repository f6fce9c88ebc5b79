import DFUCore
import DeviceSim
import Transport

/// The virtual device a run updates, in the state the measurement needs: the sim's default Zephyr
/// device (buf_size 2475, buf_count 4, reassembly) with the profile's flash, reachable through its
/// own connector with the profile's radio on a real-time clock, and with an earlier image already in
/// slot 1 — as on any device that was updated before — so the upload has to wait for the erase.
struct BenchDevice {
    let clock: LinkClock
    let connector: MemoryConnector
    let peripheral: VirtualPeripheral

    /// The slot is larger than the default 384 KiB so the 512 KiB bench image fits.
    static let slotSize = "1M"
    static let connectTimeout = Duration.seconds(10)

    /// Builds the device and puts `previous` into its slot 1 over a first connection, which it
    /// closes again.
    static func prepare(_ profile: BenchProfile, previous: ImageFile) async throws -> BenchDevice {
        try await prepare(profile, previous: previous, on: MemoryConnector(clock: LinkClock.realTime()), id: nil)
    }

    /// As `prepare(_:previous:)`, registered with `connector` (its clock; e.g. one with a shared
    /// adapter) under the sim identity `id` (nil = the sim's default), so several devices can share it.
    static func prepare(_ profile: BenchProfile, previous: ImageFile, on connector: MemoryConnector,
                        id: String?) async throws -> BenchDevice {
        let clock = connector.clock
        var options = SimOptions()
        try options.set("slot_size", to: slotSize)
        if let id { try options.set("id", to: id) }
        var configuration = try options.deviceConfiguration()
        configuration.flashTiming = profile.flash
        let peripheral = VirtualPeripheral(device: try VirtualDevice(configuration: configuration), clock: clock,
                                           connector: connector)
        await connector.register(peripheral, as: peripheral.identity, profile: profile.link)
        let device = BenchDevice(clock: clock, connector: connector, peripheral: peripheral)
        try await device.upload(previous)
        return device
    }

    func connect() async throws -> any Link {
        try await connector.connect(to: peripheral.identity, deadline: .now + Self.connectTimeout)
    }

    /// Whether slot 1 holds exactly `image` from its start.
    func slotHolds(_ image: ImageFile) async -> Bool {
        await peripheral.snapshot.server.bootloader.secondary.read(0 ..< image.bytes.count).elementsEqual(image.bytes)
    }

    private func upload(_ image: ImageFile) async throws {
        let link = try await connect()
        let session = try await SMPSession(link: link, clock: clock)
        let parameters = try await session.request(MCUmgrParametersRequest())
        await session.setDeviceLimits(bufferSize: Int(parameters.bufferSize), reassembles: true)
        let window = ImageUploadConfiguration.window(bufferCount: parameters.bufferCount)
        for try await _ in await session.upload(image.job, configuration: ImageUploadConfiguration(window: window)) {}
        await session.close()
        await link.disconnect()
    }
}
