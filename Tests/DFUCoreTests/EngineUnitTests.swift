@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

extension EngineTests {
    /// The engine's pure parts: backoff, rate, the plan from the device's image list, the GATT check.
    @Suite struct EngineUnitTests {
        @Test func backoffDoublesUpToItsCap() {
            var backoff = ConnectBackoff(first: .milliseconds(100), cap: .seconds(1))
            let delays = (0 ..< 7).map { _ in backoff.nextDelay() }
            #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                               .seconds(1), .seconds(1), .seconds(1)])
        }

        @Test func backoffNeverOverflowsAfterManyFailures() {
            var backoff = ConnectBackoff()
            for _ in 0 ..< 1000 { _ = backoff.nextDelay() }
            #expect(backoff.nextDelay() == .seconds(2))
        }

        @Test func rateIsMeasuredFromTheFirstAcknowledgedChunk() {
            var meter = TransferRateMeter()
            // The first answer comes after a 3 s erase; it is the base, not part of the rate.
            #expect(meter.record(acknowledged: 2_000, at: .seconds(3)) == 0)
            #expect(meter.record(acknowledged: 12_000, at: .seconds(4)) == 10_000)
            #expect(meter.record(acknowledged: 22_000, at: .seconds(5)) == 10_000)
        }

        @Test func rateStartsAgainWhenTheDeviceRestartsTheUpload() {
            var meter = TransferRateMeter()
            _ = meter.record(acknowledged: 1_000, at: .seconds(1))
            _ = meter.record(acknowledged: 30_000, at: .seconds(2))
            #expect(meter.record(acknowledged: 32, at: .seconds(3)) == 0, "a reboot lost the session")
            #expect(meter.record(acknowledged: 5_032, at: .seconds(4)) == 5_000)
        }

        let new: [UInt8] = Array(repeating: 0xAA, count: 32)
        let old: [UInt8] = Array(repeating: 0x11, count: 32)

        func state(_ slots: ImageSlotState...) -> ImageStateResponse { ImageStateResponse(images: slots) }

        @Test func aCoresCountBecomesTheEnginesProgress() {
            let count = AcknowledgedProgress(acknowledged: 3_000, total: 4_000, startOffset: 1_000)
            #expect(count.fraction == 0.75 && count.description == "3000/4000 bytes")
            #expect(AcknowledgedProgress(acknowledged: 0, total: 0).fraction == 1, "nothing to send is done")
            let progress = TransferProgress(count, elapsed: .seconds(2), rate: 1_000, part: nil)
            #expect(progress == TransferProgress(acknowledged: 3_000, total: 4_000, elapsed: .seconds(2), rate: 1_000,
                                                 startOffset: 1_000))
            #expect(progress.sent == 2_000)
        }

        @Test func planUploadsWhenTheDeviceHasNeitherSlotWithTheImage() {
            #expect(UpdatePlan.decide(slotHash: new, state: state(.init(slot: 0, version: "1.0.0", hash: old, confirmed: true, active: true))) == .upload)
        }

        @Test func planSkipsTheUploadWhenSlotOneHoldsTheImage() {
            let list = state(.init(slot: 0, version: "1.0.0", hash: old, confirmed: true, active: true),
                             .init(slot: 1, version: "1.1.0", hash: new))
            #expect(UpdatePlan.decide(slotHash: new, state: list) == .alreadyUploaded)
        }

        @Test func planIsDoneWhenSlotZeroRunsTheImage() {
            let confirmed = state(.init(slot: 0, version: "1.1.0", hash: new, confirmed: true, active: true))
            #expect(UpdatePlan.decide(slotHash: new, state: confirmed) == .alreadyRunning(confirmed: true))
            let testing = state(.init(slot: 0, version: "1.1.0", hash: new, active: true),
                                .init(slot: 1, version: "1.0.0", hash: old, confirmed: true))
            #expect(UpdatePlan.decide(slotHash: new, state: testing) == .alreadyRunning(confirmed: false))
        }

        @Test func planIgnoresAnInactiveSlotZero() {
            let list = state(.init(slot: 0, version: "1.1.0", hash: new, active: false))
            #expect(UpdatePlan.decide(slotHash: new, state: list) == .upload)
        }

        @Test func gattCheckAcceptsZephyrsLayoutOnly() {
            let good = [GATTService(SMPGATT.service, characteristics: [
                GATTCharacteristic(SMPGATT.characteristic, properties: [.writeWithoutResponse, .notify]),
            ])]
            #expect(SMPGATT.layout.problem(in: good) == nil)
            #expect(SMPGATT.layout.problem(in: [])?.contains("no SMP service") == true)
            let noCharacteristic = [GATTService(SMPGATT.service, characteristics: [])]
            #expect(SMPGATT.layout.problem(in: noCharacteristic)?.contains("lacks the SMP characteristic") == true)
            let writeOnly = [GATTService(SMPGATT.service, characteristics: [
                GATTCharacteristic(SMPGATT.characteristic, properties: [.write, .notify]),
            ])]
            #expect(SMPGATT.layout.problem(in: writeOnly)?.contains("write-without-response") == true)
        }

        @Test func uploadFailuresMapToTheDocumentedExitCodes() {
            #expect(SMPFailure.upload(.timeout(offset: 10, attempts: 5)).exitStatus == .transferInterrupted)
            #expect(SMPFailure.upload(.linkNotRestored(after: .seconds(20))).exitStatus == .transferInterrupted)
            #expect(SMPFailure.upload(.refused(.image(.imageTooLarge), offset: 0)).exitStatus == .deviceRejected)
            #expect(SMPFailure.upload(.refused(.image(.imageTooLarge), offset: 0)).description.contains("INVALID_IMAGE_TOO_LARGE"))
            #expect(SMPFailure.upload(.remoteProtocolViolation(.offsetBeyondLength(offset: 9, length: 8))).exitStatus == .deviceRejected)
            #expect(SMPFailure.upload(.timeout(offset: 10, attempts: 5)).description.contains("Run the same command again to resume"))
        }

        @Test func reassemblyProbeIsExactlyFourBytesLongerThanOneWrite() throws {
            for write in [20, 23, 100, 244, 247, 251, 252, 495, 509] {
                let text = try #require(SMPDeviceStateReader.echoText(packetSize: write + 4))
                let packet = try OSEchoRequest(text: text).packet(sequence: 7).encoded()
                #expect(packet.count == write + 4, "write \(write)")
            }
        }

        /// `timescale` (added for the engine's tests and `dfu flash`) changes how fast the model
        /// runs, not the device: same identity, and the option text parses back.
        @Test func simTimescaleIsNotPartOfTheDevice() throws {
            let scaled = try SimOptions.parse("sim:version=1.0.0,timescale=0.05")
            #expect(scaled.timeScale == 0.05)
            #expect(scaled.identity == (try SimOptions.parse("sim:version=1.0.0")).identity)
            #expect(try SimOptions.parse(scaled.canonicalText) == scaled)
            #expect(try SimOptions.parse("sim:timescale=0").timeScale == 0)
            #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:timescale=-1") }
            #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:timescale=fast") }
        }
    }
}
