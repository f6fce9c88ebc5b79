import DFUCore
import DeviceSim
import Transport

/// One whole update as `dfu flash` runs it — `UpdateEngine` in its default test-confirm mode, from
/// checking the image to the confirmed version — on a prepared `BenchDevice`. Its wall time includes
/// what the transfer measurement leaves out on purpose: the slot erase, the reset, MCUboot's swap
/// (three moves of every used sector on the modelled flash: ≈ 50 s for 512 KiB on nRF52840 timing),
/// the reconnection and the confirmation.
struct WholeUpdateRun {
    let profile: BenchProfile
    let image: ImageFile
    let previous: ImageFile

    func measure() async throws -> WholeUpdateMeasurement {
        let device = try await BenchDevice.prepare(profile, previous: previous)
        let expected = try MCUbootImage(bytes: image.bytes).version
        let engine = UpdateEngine(image: image.bytes, imageName: image.name, key: try PublicKey.defaultBootloaderKey(),
                                  target: UpdateEngine.Target(connector: device.connector, peer: device.peripheral.identity,
                                                              flashRate: profile.flash.writeBytesPerSecond),
                                  hostPower: .mains)
        let start = ContinuousClock.now
        let run = engine.start()
        var stages: [String: Double] = [:]
        for await event in run.events {
            if case .stageFinished(let stage, let duration) = event { stages[stage.rawValue] = duration.seconds }
        }
        let version = try await run.result.value.get()
        let wall = (ContinuousClock.now - start).seconds
        guard version == expected else {
            throw BenchError.setup("the device runs \(version) after the update, not \(expected)")
        }
        return WholeUpdateMeasurement(wallSeconds: wall, stageSeconds: stages)
    }
}
