@testable import DFUCore
import DeviceSim
import Testing
import Transport

extension EngineTests {
    /// A dry run checks everything the real run checks before the transfer, then stops: no upload
    /// packet, no mark, no confirm, no reset, and the verdict says what the real run would do.
    @Suite(.timeLimit(.minutes(1))) struct EngineDryRunTests {
        let v110 = ImageVersion(major: 1, minor: 1, revision: 0)

        func verdicts(_ outcome: EngineOutcome) -> [DryRunVerdict] {
            outcome.events.compactMap { if case .dryRunPassed(let verdict) = $0 { verdict } else { nil } }
        }

        @Test func aDryRunSendsNothingAndSaysItWouldUpload() async throws {
            let bench = try await EngineTestBench.make()
            let before = await bench.device.server.bootloader.primaryImage?.hash
            let uploads = UploadRequestLog()
            let outcome = try await bench.flash(uploads: uploads) { $0.dryRun = true }
            #expect(outcome.result == .success(v110))
            #expect(outcome.started == [.verifyImage, .connect, .readDeviceState, .checkPreconditions])
            let size = try Samples.image(EngineTestBench.image).count
            #expect(verdicts(outcome) == [DryRunVerdict(plan: .upload(bytes: size), mode: .testConfirm)])
            #expect(uploads.firstPackets == 0 && uploads.dataBytes == 0, "not one upload packet")
            let device = await bench.device
            #expect(device.boots.isEmpty && device.server.bootloader.swapType == .none)
            #expect(device.server.bootloader.primaryImage?.hash == before)
        }

        @Test func aDryRunFailsAsTheRealRunWouldBeforeTheTransfer() async throws {
            let bench = try await EngineTestBench.make("sim:battery=12")
            let outcome = try await bench.flash { $0.dryRun = true }
            #expect(outcome.exitStatus == .preconditionNotMet)
            #expect(verdicts(outcome).isEmpty)
        }

        @Test func aDryRunOfAnUploadedImageWouldOnlyActivateAndOfARunningOneOnlyConfirm() async throws {
            let bench = try await EngineTestBench.make()
            _ = try await bench.flash { $0.mode = .uploadOnly }
            let uploaded = try await bench.flash { $0.dryRun = true }
            #expect(verdicts(uploaded).map(\.plan) == [.activateOnly])
            _ = try await bench.flash { $0.mode = .testOnly }
            let running = try await bench.flash { $0.dryRun = true }
            #expect(verdicts(running).map(\.plan) == [.confirmOnly])
            #expect(await bench.device.server.bootloader.swapType != .none, "still unconfirmed: the dry run confirmed nothing")
        }
    }
}
