@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

/// Every engine test, one at a time: each runs a whole update, and the suite shares its two cores
/// with timing-sensitive tests of the link model.
@Suite(.serialized, .timeLimit(.minutes(5))) enum EngineTests {}

/// The engine against the virtual Zephyr/MCUboot device over the memory link, as `dfu flash --device
/// sim` runs it but unpaced: the link and device model run as fast as the machine goes, and the
/// engine's deadlines are real time (an unpaced clock's sleeps return at once). Deadlines are short,
/// so a fault that costs a timeout costs well under a second.
struct EngineTestBench {
    static let image = "blinky-ecdsa-p256-1.1.0.signed.bin"

    let connector: MemoryConnector
    let peripheral: VirtualPeripheral

    static func make(_ simOptions: String = "sim") async throws -> EngineTestBench {
        let options = try SimOptions.parse(simOptions)
        let connector = MemoryConnector(clock: .unpaced())
        let peripheral = try await VirtualPeripheral.serve(options, on: connector)
        return EngineTestBench(connector: connector, peripheral: peripheral)
    }

    static var fastDeadlines: UpdateOptions.Deadlines {
        var deadlines = UpdateOptions.Deadlines()
        deadlines.connect = .seconds(5)
        deadlines.request = .seconds(2)
        deadlines.firstChunk = .seconds(2)
        deadlines.chunk = .milliseconds(300)
        deadlines.lastChunk = .seconds(1)
        deadlines.reboot = .seconds(5)
        return deadlines
    }

    /// Flashes `image` (the 1.1.0 sample by default), checked with the key that signed the samples
    /// unless `withKey` is false, and collects every event.
    /// With `uploads`, the upload requests written on every link are logged there.
    func flash(_ image: [UInt8]? = nil, withKey: Bool = true, host: HostPower = .mains, uploads: UploadRequestLog? = nil,
               configure: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
        var options = UpdateOptions()
        options.deadlines = Self.fastDeadlines
        configure(&options)
        let engine = UpdateEngine(image: try image ?? Samples.image(Self.image), imageName: "test.bin",
                                  key: withKey ? try Samples.key("ecdsa-p256") : nil, options: options,
                                  target: .init(connector: uploads.map { UploadCountingConnector(inner: connector, log: $0) } ?? connector,
                                                peer: peripheral.identity), hostPower: host)
        let run = engine.start()
        var events: [UpdateEvent] = []
        for await event in run.events { events.append(event) }
        return EngineOutcome(events: events, result: await run.result.value)
    }

    var device: VirtualDevice {
        get async { await peripheral.snapshot }
    }

    /// The SHA256 TLV of a sample: what the device reports for the slot holding it.
    static func slotHash(_ image: [UInt8]) throws -> [UInt8] {
        try #require(try MCUbootImage(bytes: image).sha256TLV)
    }
}

/// What one run of the engine did.
struct EngineOutcome {
    var events: [UpdateEvent]
    var result: Result<ImageVersion, DFUError>

    var error: DFUError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    var exitStatus: ExitCodes.ExitStatus { error?.exitStatus ?? .success }

    var started: [UpdateStage] {
        events.compactMap { if case .stageStarted(let stage) = $0 { stage } else { nil } }
    }

    var finished: [UpdateStage] {
        events.compactMap { if case .stageFinished(let stage, _) = $0 { stage } else { nil } }
    }

    var progress: [TransferProgress] {
        events.compactMap { if case .progress(let progress) = $0 { progress } else { nil } }
    }

    var warnings: [String] {
        events.compactMap { if case .warning(let message) = $0 { message } else { nil } }
    }

    var resumes: [(offset: Int, attempt: Int)] {
        events.compactMap { if case .resumed(let offset, let attempt) = $0 { (offset, attempt) } else { nil } }
    }

    var versionReports: [(version: ImageVersion, confirmed: Bool)] {
        events.compactMap {
            if case .versionConfirmed(let version, let confirmed, _) = $0 { (version, confirmed) } else { nil }
        }
    }
}

extension VirtualDevice {
    /// Nothing of an upload reached the device: no session, second slot untouched.
    var receivedNoUpload: Bool {
        server.uploadSession == nil && server.bootloader.secondary.isErased
    }
}
