@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

extension EngineTests {
    /// The battery read again after the upload, before anything activates it: below `--min-battery`
    /// the run stops (exit 4) with the image in slot 1 and nothing marked; once charged, the same
    /// update only activates.
    @Suite(.timeLimit(.minutes(1))) struct EngineBatteryFallTests {
        let slotHash: [UInt8]
        let v110 = ImageVersion(major: 1, minor: 1, revision: 0)

        init() throws {
            slotHash = try EngineTestBench.slotHash(try Samples.image(EngineTestBench.image))
        }

        @Test func aBatteryThatFallsDuringTheTransferStopsBeforeActivationAndTheRerunOnlyActivates() async throws {
            let bench = try await EngineTestBench.make("sim:fault=battery@50%:12")
            let first = try await bench.flash()
            #expect(first.error == .precondition([.batteryFell(level: 12, minimum: 30)]), "\(first.result)")
            #expect(first.exitStatus == .preconditionNotMet)
            #expect(first.finished.contains(.transfer) && !first.finished.contains(.activate))
            #expect(!first.events.contains { if case .activated = $0 { true } else { false } })
            let held = await bench.device
            #expect(held.boots.isEmpty, "never reset")
            #expect(held.server.bootloader.swapType == .none, "nothing marked")
            #expect(held.server.bootloader.secondaryImage?.hash == slotHash, "the image is uploaded")
            #expect(held.server.bootloader.primaryImage?.hash != slotHash)

            await bench.peripheral.setBatteryLevel(80)
            let uploads = UploadRequestLog()
            let rerun = try await bench.flash(uploads: uploads)
            #expect(rerun.result == .success(v110), "\(rerun.result)")
            #expect(!rerun.started.contains(.transfer), "slot 1 already held the image")
            #expect(uploads.chunks.isEmpty && uploads.firstPackets == 0, "not one upload request")
            let device = await bench.device
            #expect(device.server.bootloader.primaryImage?.hash == slotHash)
            #expect(device.server.bootloader.swapType == .none)
        }

        @Test func aRerunStillUnchargedIsRefusedBeforeAnythingIsSent() async throws {
            let bench = try await EngineTestBench.make("sim:fault=battery@50%:12")
            _ = try await bench.flash()
            let again = try await bench.flash()
            #expect(again.error == .precondition([.batteryLow(level: 12, minimum: 30)]))
            #expect(await bench.device.server.bootloader.swapType == .none)
        }

        @Test func aBatteryStillAboveTheLimitAfterTheTransferActivates() async throws {
            let bench = try await EngineTestBench.make("sim:fault=battery@50%:31")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110), "\(outcome.result)")
        }

        @Test func theLimitGivenIsTheOneAppliedAfterTheTransfer() async throws {
            let bench = try await EngineTestBench.make("sim:fault=battery@50%:12")
            let outcome = try await bench.flash { $0.minimumBattery = 10 }
            #expect(outcome.result == .success(v110), "\(outcome.result)")
        }

        @Test func theBatteryIsCheckedAgainOnlyBeforeActivatingNotForUploadOnly() async throws {
            let bench = try await EngineTestBench.make("sim:fault=battery@50%:12")
            let outcome = try await bench.flash { $0.mode = .uploadOnly }
            #expect(outcome.result == .success(v110), "nothing is activated, so nothing is at risk: \(outcome.result)")
        }
    }
}
