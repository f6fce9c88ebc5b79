import DFUCore
import DeviceSim
import Transport

/// One measured transfer: a fresh virtual device on a real-time memory link, an earlier image
/// uploaded to its slot 1 on a first connection (so the device has to erase before it answers, as
/// any device that was updated before does), then, on a second connection, the stage the ceiling
/// describes: connect, MCUmgr parameters, upload at the default window.
struct TransferRun {
    let profile: BenchProfile
    let image: ImageFile
    let previous: ImageFile

    /// The slot is larger than the default 384 KiB so the 512 KiB bench image fits.
    static let slotSize = "1M"
    static let connectTimeout = Duration.seconds(10)

    func measure() async throws -> RunMeasurement {
        let clock = LinkClock.realTime()
        let connector = MemoryConnector(clock: clock)
        let peripheral = try await makeDevice(on: connector)
        try await uploadPrevious(to: peripheral, through: connector, clock: clock)

        let connectStart = ContinuousClock.now
        let link = try await connector.connect(to: peripheral.identity, deadline: .now + Self.connectTimeout)
        guard let memoryLink = link as? MemoryLink else { throw BenchError.setup("the connector did not give a memory link") }
        let tap = WireTap(memoryLink)
        let session = try await SMPSession(link: tap, clock: clock)
        let outcome: Result<RunMeasurement, any Error>
        do {
            outcome = .success(try await upload(session, tap, memoryLink, peripheral, connectStart: connectStart))
        } catch {
            outcome = .failure(error)
        }
        await session.close()
        await memoryLink.disconnect()
        return try outcome.get()
    }

    /// The measured part on the open session: parameters, then the upload, timed as `RunMeasurement`
    /// describes.
    private func upload(_ session: SMPSession, _ tap: WireTap, _ memoryLink: MemoryLink, _ peripheral: VirtualPeripheral,
                        connectStart: ContinuousClock.Instant) async throws -> RunMeasurement {
        let parameters = try await session.request(MCUmgrParametersRequest())
        // DeviceSim reassembles (Zephyr's CONFIG_MCUMGR_TRANSPORT_BT_REASSEMBLY, the sim's default).
        await session.setDeviceLimits(bufferSize: Int(parameters.bufferSize), reassembles: true)
        let window = ImageUploadConfiguration.window(bufferCount: parameters.bufferCount)
        let connectSeconds = DurationValue.seconds(ContinuousClock.now - connectStart)
        tap.reset()

        let uploadStart = ContinuousClock.now
        var start: (at: ContinuousClock.Instant, acknowledged: UInt64, cpu: Duration, radio: MemoryLinkStatistics)?
        for try await progress in await session.upload(image.job, configuration: ImageUploadConfiguration(window: window)) {
            guard start == nil, progress.acknowledged > 0 else { continue }
            // Clock first: the statistics call below is an actor hop.
            let at = ContinuousClock.now
            let cpu = ProcessCPUTime.now()
            start = (at, progress.acknowledged, cpu, await memoryLink.statistics())
        }
        let end = ContinuousClock.now
        let cpuEnd = ProcessCPUTime.now()
        let radioEnd = await memoryLink.statistics()

        guard let start, UInt64(image.bytes.count) > start.acknowledged else {
            throw BenchError.setup("the device acknowledged the whole image in its first reply: nothing was streamed")
        }
        try await expectSlotHolds(image, peripheral)
        guard tap.strayWrites == 0 else { throw BenchError.setup("\(tap.strayWrites) writes were not part of an SMP packet") }
        let chunks = ChunkRecord(tap.packets.compactMap(\.uploadChunk))
        var radio = RadioCeiling(profile: profile.link)
        guard let radioCeiling = radio.imageBytesPerSecond(chunks.streamed) else {
            throw BenchError.setup("no upload chunks were recorded")
        }
        return RunMeasurement(RunMeasurement.Observed(
            streamedBytes: image.bytes.count - Int(start.acknowledged),
            transferSeconds: DurationValue.seconds(end - start.at),
            eraseWaitSeconds: DurationValue.seconds(start.at - uploadStart),
            connectSeconds: connectSeconds,
            radioCeiling: radioCeiling,
            flashCeiling: profile.flash.writeBytesPerSecond,
            cpuSeconds: DurationValue.seconds(cpuEnd - start.cpu),
            window: window,
            deviceBufferSize: Int(parameters.bufferSize),
            deviceBufferCount: Int(parameters.bufferCount),
            chunkLayout: chunks.commonLayout,
            chunks: chunks.streamed.count,
            resentBytes: chunks.resentBytes,
            connectionEvents: radioEnd.connectionEvents - start.radio.connectionEvents,
            centralPDUs: radioEnd.centralPDUs - start.radio.centralPDUs))
    }

    /// The sim's default Zephyr device (buf_size 2475, buf_count 4, reassembly) with this profile's
    /// flash, reachable through `connector` with this profile's radio.
    private func makeDevice(on connector: MemoryConnector) async throws -> VirtualPeripheral {
        var options = SimOptions()
        try options.set("slot_size", to: Self.slotSize)
        var configuration = try options.deviceConfiguration()
        configuration.flashTiming = profile.flash
        let device = try VirtualDevice(configuration: configuration)
        let peripheral = VirtualPeripheral(device: device, clock: connector.clock, connector: connector)
        await connector.register(peripheral, as: peripheral.identity, profile: profile.link)
        return peripheral
    }

    /// Puts `previous` into slot 1 over a first connection, then disconnects.
    private func uploadPrevious(to peripheral: VirtualPeripheral, through connector: MemoryConnector,
                                clock: LinkClock) async throws {
        let link = try await connector.connect(to: peripheral.identity, deadline: .now + Self.connectTimeout)
        let session = try await SMPSession(link: link, clock: clock)
        let parameters = try await session.request(MCUmgrParametersRequest())
        await session.setDeviceLimits(bufferSize: Int(parameters.bufferSize), reassembles: true)
        let configuration = ImageUploadConfiguration(window: ImageUploadConfiguration.window(bufferCount: parameters.bufferCount))
        for try await _ in await session.upload(previous.job, configuration: configuration) {}
        await session.close()
        await link.disconnect()
    }

    /// The run counts only if slot 1 ends up holding exactly the image.
    private func expectSlotHolds(_ image: ImageFile, _ peripheral: VirtualPeripheral) async throws {
        let slot = await peripheral.snapshot.server.bootloader.secondary.read(0 ..< image.bytes.count)
        guard slot.elementsEqual(image.bytes) else {
            throw BenchError.setup("slot 1 does not hold the uploaded image after the upload finished")
        }
    }
}
