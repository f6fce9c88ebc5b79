import DFUCore
import DeviceSim
import Transport

/// One measured transfer on a prepared `BenchDevice` (slot 1 already holds an earlier image, so
/// the device erases before it answers), over a second connection: the stage the ceiling
/// describes — connect, MCUmgr parameters, upload at the default window.
struct TransferRun {
    let profile: BenchProfile
    let image: ImageFile
    let previous: ImageFile

    /// A measured transfer and when its measured interval began and ended, for a run of several
    /// devices at once (`FleetRun`) to add up.
    struct Timed: Sendable {
        let measurement: RunMeasurement
        let firstReply: ContinuousClock.Instant
        let lastReply: ContinuousClock.Instant
    }

    func measure() async throws -> RunMeasurement {
        try await measure(on: BenchDevice.prepare(profile, previous: previous)).measurement
    }

    /// The transfer on `device`, prepared already.
    func measure(on device: BenchDevice) async throws -> Timed {
        let connectStart = ContinuousClock.now
        let link = try await device.connect()
        guard let memoryLink = link as? MemoryLink else { throw BenchError.setup("the connector did not give a memory link") }
        let tap = WireTap(memoryLink)
        let session = try await SMPSession(link: tap, clock: device.clock)
        let outcome: Result<Timed, any Error>
        do {
            outcome = .success(try await upload(session, tap, memoryLink, device, connectStart: connectStart))
        } catch {
            outcome = .failure(error)
        }
        await session.close()
        await memoryLink.disconnect()
        return try outcome.get()
    }

    /// The measured part on the open session: parameters, then the upload, timed as `RunMeasurement`
    /// describes.
    private func upload(_ session: SMPSession, _ tap: WireTap, _ memoryLink: MemoryLink, _ device: BenchDevice,
                        connectStart: ContinuousClock.Instant) async throws -> Timed {
        let parameters = try await session.request(MCUmgrParametersRequest())
        // DeviceSim reassembles (Zephyr's CONFIG_MCUMGR_TRANSPORT_BT_REASSEMBLY, the sim's default).
        await session.setDeviceLimits(bufferSize: Int(parameters.bufferSize), reassembles: true)
        let window = ImageUploadConfiguration.window(bufferCount: parameters.bufferCount)
        let connectSeconds = (ContinuousClock.now - connectStart).seconds
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
        guard await device.slotHolds(image) else {
            throw BenchError.setup("slot 1 does not hold the uploaded image after the upload finished")
        }
        guard tap.strayWrites == 0 else { throw BenchError.setup("\(tap.strayWrites) writes were not part of an SMP packet") }
        let chunks = ChunkRecord(tap.packets.compactMap(\.uploadChunk))
        var radio = RadioCeiling(profile: profile.link)
        guard let radioCeiling = radio.imageBytesPerSecond(chunks.streamed) else {
            throw BenchError.setup("no upload chunks were recorded")
        }
        let measurement = RunMeasurement(RunMeasurement.Observed(
            streamedBytes: image.bytes.count - Int(start.acknowledged),
            transferSeconds: (end - start.at).seconds,
            eraseWaitSeconds: (start.at - uploadStart).seconds,
            connectSeconds: connectSeconds,
            radioCeiling: radioCeiling,
            flashCeiling: profile.flash.writeBytesPerSecond,
            cpuSeconds: (cpuEnd - start.cpu).seconds,
            window: window,
            deviceBufferSize: Int(parameters.bufferSize),
            deviceBufferCount: Int(parameters.bufferCount),
            chunkLayout: chunks.commonLayout,
            chunks: chunks.streamed.count,
            resentBytes: chunks.resentBytes,
            connectionEvents: radioEnd.connectionEvents - start.radio.connectionEvents,
            centralPDUs: radioEnd.centralPDUs - start.radio.centralPDUs))
        return Timed(measurement: measurement, firstReply: start.at, lastReply: end)
    }
}
