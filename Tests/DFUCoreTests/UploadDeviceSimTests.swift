import DeviceSim
import Testing
import Transport
@testable import DFUCore

/// Our client against the colleague's virtual Zephyr device (`DeviceSim`), over the memory link
/// with its BLE timing model and back-pressure: the session, both cores and a signed sample image,
/// end to end. The link and the device run unpaced (as fast as the machine goes); the session's
/// deadlines are on a clock nobody moves, so none passes however long a busy machine keeps the
/// model waiting (a deadline in scaled model time did, and the upload gave up on a device that
/// was about to answer). What deadlines do is the cores' tests' subject (`UploadRecoveryTests`).
@Suite(.timeLimit(.minutes(1))) struct UploadDeviceSimTests {
    static let image = "blinky-ecdsa-p256-1.1.0.signed.bin"

    struct Setup {
        /// The radio's ceiling for writes without response, bytes per second.
        let ceiling: Double?
        let connector: MemoryConnector
        let peripheral: VirtualPeripheral
        let session: SMPSession
        let window: Int
    }

    func setUp(_ options: String) async throws -> Setup {
        let connector = MemoryConnector(clock: .unpaced())
        let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse(options), on: connector)
        let link = try await connector.connect(to: peripheral.identity, deadline: .now + .seconds(60))
        let session = try await SMPSession(link: link, clock: LinkClock.manual())
        let parameters = try await session.request(MCUmgrParametersRequest())
        await session.setDeviceLimits(bufferSize: Int(parameters.bufferSize), reassembles: true)
        return Setup(ceiling: link.parameters.writeCommandCeiling, connector: connector,
                     peripheral: peripheral, session: session,
                     window: ImageUploadConfiguration.window(bufferCount: parameters.bufferCount))
    }

    /// Reconnects (as the engine will) whenever the session reports a lost link.
    func keepConnected(_ setup: Setup) -> Task<Int, any Error> {
        Task {
            var reconnects = 0
            for await _ in setup.session.linkLosses {
                let link = try await setup.connector.connect(to: setup.peripheral.identity, deadline: .now + .seconds(60))
                try await setup.session.attach(link)
                reconnects += 1
            }
            return reconnects
        }
    }

    func upload(_ image: [UInt8], with setup: Setup) async throws -> [AcknowledgedProgress] {
        var seen: [AcknowledgedProgress] = []
        let job = ImageUploadJob(image: image, sha256: try SHA256.hash(image))
        for try await progress in await setup.session.upload(job, configuration: ImageUploadConfiguration(window: setup.window)) {
            seen.append(progress)
        }
        return seen
    }

    /// The slot-1 hash the device reports must be the image's SHA256 TLV.
    func expectSlotHolds(_ image: [UInt8], _ setup: Setup) async throws {
        let state = try await setup.session.request(ImageStateReadRequest())
        #expect(state.slot(1)?.hash == (try MCUbootImage(bytes: image).sha256TLV))
        #expect(state.slot(1)?.version == "1.1.0")
    }

    @Test func uploadsASignedImageToTheVirtualDevice() async throws {
        let image = try Samples.image(Self.image)
        let setup = try await setUp("sim:version=1.0.0")
        #expect(setup.window == 3, "buf_count 4 → window 3")
        let progress = try await upload(image, with: setup)
        #expect(progress.last == AcknowledgedProgress(acknowledged: UInt64(image.count), total: UInt64(image.count)))
        try await expectSlotHolds(image, setup)
        await setup.session.close()
    }

    /// The 512 KiB bench image lands intact through the windowed upload. Its speed against the
    /// ceiling is `make bench`'s to measure (docs/performance.md): a rate asserted here would depend
    /// on how busy the test machine is, since the model runs at a fraction of real time.
    @Test func bigUploadLandsIntact() async throws {
        let image = try Samples.image("bench-512k-ecdsa-p256-1.1.0.signed.bin")
        let setup = try await setUp("sim:version=1.0.0,slot_size=1M")
        let job = ImageUploadJob(image: image, sha256: try SHA256.hash(image))
        var last: UInt64 = 0
        for try await progress in await setup.session.upload(job, configuration: ImageUploadConfiguration(window: setup.window)) {
            #expect(progress.acknowledged >= last, "the device's offset only moves forward on a clean link")
            last = progress.acknowledged
        }
        #expect(last == UInt64(image.count))
        try await expectSlotHolds(image, setup)
        await setup.session.close()
    }

    @Test func uploadResumesFromDeviceOffsetAfterLinkLoss() async throws {
        let image = try Samples.image(Self.image)
        let setup = try await setUp("sim:version=1.0.0,fault=disconnect@40%")
        let reconnecting = keepConnected(setup)
        let progress = try await upload(image, with: setup)
        #expect(progress.last?.acknowledged == UInt64(image.count))
        // The device kept its session: progress never fell back to the start.
        #expect(progress.dropFirst().allSatisfy { $0.acknowledged > 0 })
        try await expectSlotHolds(image, setup)
        await setup.session.close()
        #expect(try await reconnecting.value == 1)
    }

    @Test func uploadRestartsCleanlyWhenTheDeviceRebootsMidTransfer() async throws {
        let image = try Samples.image(Self.image)
        let setup = try await setUp("sim:version=1.0.0,fault=reboot@60%")
        let reconnecting = keepConnected(setup)
        let progress = try await upload(image, with: setup)
        #expect(progress.last?.acknowledged == UInt64(image.count))
        try await expectSlotHolds(image, setup)
        await setup.session.close()
        #expect(try await reconnecting.value == 1)
    }
}
