@testable import DFUCore
import DeviceSim
import Testing

extension EngineTests {
    /// `--image N` on the nRF5340-like virtual device (`sim:images=2`): the upload, the plan, the
    /// version check and the confirmation all concern that image index only.
    @Suite(.timeLimit(.minutes(1))) struct EngineImageIndexTests {
        let image: [UInt8]
        let slotHash: [UInt8]
        let v110 = ImageVersion(major: 1, minor: 1, revision: 0)

        init() throws {
            image = try Samples.image(EngineTestBench.image)
            slotHash = try EngineTestBench.slotHash(image)
        }

        @Test func imageOneIsUpdatedAndImageZeroKeepsItsOldImage() async throws {
            let bench = try await EngineTestBench.make("sim:images=2")
            let before = await bench.device.server.bootloader.primaryImage?.hash
            let outcome = try await bench.flash { options in
                options.imageIndex = 1
                options.mode = .confirmOnly
            }
            #expect(outcome.result == .success(v110))
            let device = await bench.device
            #expect(device.server.bootloader.images[1].primaryImage?.hash == slotHash)
            #expect(device.server.bootloader.images[1].swapType == .none, "permanent: nothing reverts")
            #expect(device.server.bootloader.primaryImage?.hash == before, "image 0 still runs its old image")
            #expect(device.server.bootloader.primaryImage?.versionString == "1.0.0")
            #expect(device.server.bootloader.secondaryImage == nil, "nothing went to image 0's slots")
        }

        @Test func firstPacketCarriesTheImageIndexAndUpgradeWhenAsked() async throws {
            let bench = try await EngineTestBench.make("sim:images=2")
            let uploads = UploadRequestLog()
            let outcome = try await bench.flash(uploads: uploads) { options in
                options.imageIndex = 1
                options.mode = .confirmOnly
                options.requireNewer = true
            }
            #expect(outcome.result == .success(v110))
            let first = try #require(uploads.firstPacketRequests.first)
            #expect(first.image == 1 && first.upgrade == true)
            let plain = try await EngineTestBench.make("sim")
            let plainUploads = UploadRequestLog()
            _ = try await plain.flash(uploads: plainUploads)
            let plainFirst = try #require(plainUploads.firstPacketRequests.first)
            #expect(plainFirst.image == nil && plainFirst.upgrade == nil, "left out unless asked")
        }

        @Test func testOnlyOnImageOneLeavesItUnconfirmed() async throws {
            let bench = try await EngineTestBench.make("sim:images=2")
            let outcome = try await bench.flash { options in
                options.imageIndex = 1
                options.mode = .testOnly
            }
            #expect(outcome.result == .success(v110))
            #expect(outcome.versionReports.map(\.confirmed) == [false])
            #expect(await bench.device.server.bootloader.images[1].swapType == .revert)
        }

        @Test func testConfirmOnImageOneIsMadePermanentBeforeTheReset() async throws {
            // Zephyr refuses to confirm image 1's running image after the reboot (32,
            // IMAGE_CONFIRMATION_DENIED), so the engine marks it permanent instead
            // (ActivationMode.forImage) and the device reports it confirmed.
            let bench = try await EngineTestBench.make("sim:images=2")
            let outcome = try await bench.flash { options in options.imageIndex = 1 }
            #expect(outcome.result == .success(v110))
            #expect(outcome.versionReports.map(\.confirmed) == [true])
            #expect(await bench.device.server.bootloader.images[1].swapType == .none)
        }

        @Test func anImageIndexTheDeviceDoesNotListIsRefusedBeforeTheUpload() async throws {
            let bench = try await EngineTestBench.make("sim")
            let outcome = try await bench.flash { options in options.imageIndex = 1 }
            guard case .failure(let error) = outcome.result else {
                Issue.record("expected a failure, got \(outcome.result)")
                return
            }
            #expect(error.description.contains("lists no image 1"), "\(error)")
            #expect(outcome.progress.isEmpty)
        }
    }
}
