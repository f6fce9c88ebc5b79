@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

extension EngineTests {
    /// Updates through a misbehaving link or device (the virtual device's faults): each ends with the
    /// right image on the device, or with a clear error, never a crash or a hang.
    @Suite(.timeLimit(.minutes(1))) struct EngineFaultTests {
        let image: [UInt8]
        let slotHash: [UInt8]
        let v110 = ImageVersion(major: 1, minor: 1, revision: 0)

        init() throws {
            image = try Samples.image(EngineTestBench.image)
            slotHash = try EngineTestBench.slotHash(image)
        }

        @Test func uploadResumesFromTheDeviceOffsetAfterADisconnect() async throws {
            let bench = try await EngineTestBench.make("sim:fault=disconnect@40%")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            #expect(outcome.warnings.contains { $0.contains("lost") })
            let resume = try #require(outcome.resumes.first)
            #expect(resume.attempt == 1)
            #expect(resume.offset * 10 >= image.count * 4, "resumed where the device was, not from 0: \(resume.offset)")
            #expect(outcome.progress.drop { $0.acknowledged < image.count * 4 / 10 }.allSatisfy { $0.acknowledged > 0 })
            let device = await bench.device
            #expect(device.server.bootloader.primaryImage?.hash == slotHash)
            #expect(device.boots.count == 1, "the device never reset during the upload")
        }

        @Test func uploadRestartsCleanlyWhenTheDeviceRebootsMidTransfer() async throws {
            let bench = try await EngineTestBench.make("sim:fault=reboot@60%")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            let resume = try #require(outcome.resumes.first)
            #expect(resume.offset < image.count / 2, "the reboot lost the session: the upload started over")
            let device = await bench.device
            #expect(device.server.bootloader.primaryImage?.hash == slotHash)
            #expect(device.boots.count == 2, "the fault's reboot, then the update's reset")
        }

        @Test func linkLostTwiceStillCompletes() async throws {
            let bench = try await EngineTestBench.make("sim:fault=disconnect@20%+disconnect@70%")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            #expect(outcome.resumes.count == 2)
            #expect(await bench.device.server.bootloader.primaryImage?.hash == slotHash)
        }

        @Test func stalledReplyCostsOneChunkTimeout() async throws {
            let bench = try await EngineTestBench.make("sim:fault=stall@30%")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            #expect(await bench.device.server.bootloader.primaryImage?.hash == slotHash)
        }

        @Test func delayedReplyIsWaitedFor() async throws {
            let bench = try await EngineTestBench.make("sim:fault=delay@30%:100ms")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
        }

        @Test func duplicatedReplyIsHarmless() async throws {
            let bench = try await EngineTestBench.make("sim:fault=duplicate@30%")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110))
            #expect(await bench.device.server.bootloader.primaryImage?.hash == slotHash)
        }

        @Test func corruptedReplyEndsWithAClearError() async throws {
            let bench = try await EngineTestBench.make("sim:fault=corrupt@30%")
            let outcome = try await bench.flash()
            // A reply that does not decode is the device breaking the protocol; nothing it says after
            // that is trusted, so the update stops and says so (running again resumes the session).
            #expect(outcome.exitStatus == .deviceRejected)
            let message = try #require(outcome.error?.description)
            #expect(message.contains("protocol") || message.contains("CBOR"), "\(message)")
            #expect(!outcome.started.contains(.activate), "a broken upload is never activated")
            #expect(await bench.device.boots.isEmpty)
        }

        @Test func rerunAfterAnInterruptedUploadResumesTheDeviceSession() async throws {
            let bench = try await EngineTestBench.make("sim:fault=corrupt@50%")
            let first = try await bench.flash()
            #expect(first.error != nil)
            let second = try await bench.flash()
            #expect(second.result == .success(v110))
            // The device kept its upload session (same file SHA-256): the second run did not start at 0.
            let firstAcknowledged = try #require(second.progress.first?.acknowledged)
            #expect(firstAcknowledged * 10 >= image.count * 4, "\(firstAcknowledged)")
        }

        /// Link losses and reboots at seeded random points: every run completes with the new image
        /// confirmed. Races between the old link's end and the new link's start show up here first.
        @Test(arguments: 1 ... 20)
        func linkLossAtARandomPointAlwaysCompletes(seed: Int) async throws {
            let bench = try await EngineTestBench.make("sim:seed=\(seed),fault=disconnect@random+reboot@random")
            let outcome = try await bench.flash()
            #expect(outcome.result == .success(v110), "seed \(seed): \(outcome.result)")
            #expect(await bench.device.server.bootloader.primaryImage?.hash == slotHash)
        }
    }
}
