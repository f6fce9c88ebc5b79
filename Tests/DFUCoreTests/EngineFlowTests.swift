@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

extension EngineTests {
    /// Whole updates against the virtual device: every stage, every activation mode, and the shortcuts
    /// for an image the device already has.
    @Suite(.timeLimit(.minutes(1))) struct EngineFlowTests {
        let image: [UInt8]
        let slotHash: [UInt8]
        let v110 = ImageVersion(major: 1, minor: 1, revision: 0)

        init() throws {
            image = try Samples.image(EngineTestBench.image)
            slotHash = try EngineTestBench.slotHash(image)
        }

        @Test func testConfirmLeavesNewImageRunningAndConfirmed() async throws {
            let bench = try await EngineTestBench.make()
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            #expect(outcome.started == UpdateStage.allCases)
            #expect(outcome.finished == UpdateStage.allCases, "every stage finished, in order")
            #expect(outcome.versionReports.map(\.confirmed) == [true])
            #expect(outcome.progress.last?.acknowledged == image.count)
            let device = await bench.device
            #expect(device.server.bootloader.primaryImage?.hash == slotHash)
            #expect(device.server.bootloader.swapType == .none, "confirmed: nothing reverts at the next reset")
            #expect(device.boots.count == 1)
        }

        /// The upload core announces 0 when the first packet goes out; the engine shows progress from
        /// the device's first answer on, so the rate leaves out the slot's erase.
        @Test func theFirstProgressIsTheDevicesFirstAnswer() async throws {
            let bench = try await EngineTestBench.make()
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            let first = try #require(outcome.progress.first)
            #expect(first.acknowledged > 0 && first.total == image.count && first.startOffset == 0)
        }

        @Test func eventsDescribeTheLinkAndTheDevice() async throws {
            let bench = try await EngineTestBench.make("sim:mtu=247,phy=1M,interval=30,battery=64")
            let outcome = try await bench.flash()
            let connected = outcome.events.compactMap { if case .connected(let summary) = $0 { summary } else { nil } }
            #expect(connected.count == 1)
            #expect(connected.first?.attMTU == 247 && connected.first?.phy == "1M")
            #expect(connected.first?.connectionInterval == .milliseconds(30))
            #expect(connected.first?.window == 3, "buf_count 4 → window 3")
            #expect(connected.first?.device == bench.peripheral.identity.redacted, "identity shortened")
            let facts = outcome.events.compactMap { if case .deviceState(let facts) = $0 { facts } else { nil } }
            #expect(facts.first?.batteryLevel == 64)
            #expect(facts.first?.runningVersion == ImageVersion(major: 1, minor: 0, revision: 0))
            #expect(facts.first?.firmwareRevision == "1.0.0")
            #expect(facts.first?.bufferSize == 2475 && facts.first?.bufferCount == 4)
            #expect(facts.first?.slotSize != nil)
        }

        @Test func deviceWithoutReassemblyGetsOnePacketPerWrite() async throws {
            let bench = try await EngineTestBench.make("sim:reassembly=off")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            let logs = outcome.events.compactMap { if case .log(let message) = $0 { message } else { nil } }
            #expect(logs.contains { $0.contains("one packet per write") })
            #expect(await bench.device.server.bootloader.primaryImage?.hash == slotHash)
        }

        @Test func confirmOnlyMakesTheImagePermanentBeforeTheReset() async throws {
            let bench = try await EngineTestBench.make()
            let outcome = try await bench.flash { $0.mode = .confirmOnly }
            #expect(outcome.result == .success(v110))
            #expect(outcome.events.contains(.activated(.confirmOnly)))
            #expect(outcome.versionReports.map(\.confirmed) == [true])
            let device = await bench.device
            #expect(device.server.bootloader.primaryImage?.hash == slotHash)
            #expect(device.server.bootloader.swapType == .none)
        }

        @Test func testOnlyLeavesTheImageRunningUnconfirmed() async throws {
            let bench = try await EngineTestBench.make()
            let outcome = try await bench.flash { $0.mode = .testOnly }
            #expect(outcome.result == .success(v110))
            #expect(outcome.versionReports.map(\.confirmed) == [false])
            let device = await bench.device
            #expect(device.server.bootloader.primaryImage?.hash == slotHash)
            #expect(device.server.bootloader.swapType == .revert, "the next reset goes back to 1.0.0")
        }

        @Test func uploadOnlyStopsAfterTheTransfer() async throws {
            let bench = try await EngineTestBench.make()
            let outcome = try await bench.flash { $0.mode = .uploadOnly }
            #expect(outcome.result == .success(v110))
            #expect(outcome.started == [.verifyImage, .connect, .readDeviceState, .checkPreconditions, .transfer])
            let device = await bench.device
            #expect(device.server.bootloader.secondaryImage?.hash == slotHash)
            #expect(device.server.bootloader.primaryImage?.hash != slotHash, "still running the old image")
            #expect(device.boots.isEmpty)
        }

        @Test func imageAlreadyInSecondSlotIsNotUploadedAgain() async throws {
            let bench = try await EngineTestBench.make()
            _ = try await bench.flash { $0.mode = .uploadOnly }
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            #expect(!outcome.started.contains(.transfer))
            #expect(outcome.warnings.contains { $0.contains("skipping the upload") })
            #expect(await bench.device.server.bootloader.primaryImage?.hash == slotHash)
        }

        @Test func imageAlreadyRunningAndConfirmedIsDoneWithoutSendingAnything() async throws {
            let bench = try await EngineTestBench.make()
            _ = try await bench.flash()
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110), "not refused as 'not newer': it is the same image")
            #expect(outcome.started == [.verifyImage, .connect, .readDeviceState, .confirmVersion])
            #expect(outcome.warnings.contains { $0.contains("already runs this image") })
            #expect(outcome.versionReports.map(\.confirmed) == [true])
            #expect(await bench.device.boots.count == 1, "no second reset")
        }

        @Test func imageRunningForTestIsConfirmedWithoutAnotherUpload() async throws {
            let bench = try await EngineTestBench.make()
            _ = try await bench.flash { $0.mode = .testOnly }
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            #expect(!outcome.started.contains(.transfer))
            #expect(await bench.device.server.bootloader.swapType == .none, "confirmed now")
        }

        @Test func withoutAKeyTheSignatureIsNotCheckedAndSaysSo() async throws {
            let bench = try await EngineTestBench.make()
            let outcome = try await bench.flash(withKey: false)
            #expect(outcome.result == .success(v110))
            #expect(outcome.warnings.contains { $0.contains("signature was not checked") })
            let summary = outcome.events.compactMap { if case .imageChecked(let summary) = $0 { summary } else { nil } }
            #expect(summary.first?.signatureChecked == nil)
        }

        @Test func deviceThatRefusesTheImageAtBootIsReportedAsRolledBack() async throws {
            // The device's MCUboot trusts another key: it validates the test image at reset, refuses
            // it, and boots the old one.
            let other = Samples.url("keys/TEST-ONLY-other-ecdsa-p256.pub.pem").path
            let bench = try await EngineTestBench.make("sim:key=\(other)")
            let outcome = try await bench.flash()
            #expect(outcome.exitStatus == .postRebootCheckFailed)
            #expect(outcome.error?.description.contains("rolled back or refused") == true)
            #expect(outcome.error?.description.contains("1.0.0") == true, "names what the device runs")
            #expect(await bench.device.server.bootloader.primaryImage?.hash != slotHash)
        }

        @Test func everyEventIsFreeOfImageBytesAndKeys() async throws {
            let bench = try await EngineTestBench.make()
            let outcome = try await bench.flash()
            let key = try Samples.key("ecdsa-p256")
            let text = outcome.events.map { "\($0)" }.joined()
            #expect(!text.contains(key.derBytes.hex))
            // A 16-byte run from the middle of the image body, as hex and as a Swift array.
            let run = Array(image[1000 ..< 1016])
            #expect(!text.contains(run.hex) && !text.contains("\(run)"))
        }
    }
}
