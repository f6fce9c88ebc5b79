@testable import DFUCore
import DeviceSim
import ReferenceDevices
import Testing
import Transport

extension EngineTests {
    /// dfu through MCUboot's serial recovery, against the MCUboot model written from boot_serial.c
    /// by someone who had not read dfu (docs/reference-device-mcumgr-serial.md): the image goes
    /// straight into the primary slot, the bootloader lists it valid, its reset boots it, and the
    /// Zephyr application then answers on the same port.
    @Suite(.timeLimit(.minutes(3))) struct ReferenceRecoveryEngineTests {
        typealias Reference = ReferenceSerialEngineTests
        static let updated = ImageVersion(major: 1, minor: 1, revision: 0)

        /// The model with `edit` applied, powered on with the recovery button held (or not).
        static func device(inRecovery: Bool = true, _ edit: (inout MCUmgrSerialConfiguration) -> Void = { _ in })
            async throws -> (SerialLineDeviceHost, SerialPipe) {
            var configuration = MCUmgrSerialConfiguration(initialImage: try Samples.image("blinky-ecdsa-p256-1.0.0.signed.bin"))
            configuration.baudRate = Reference.baud
            edit(&configuration)
            let pipe = SerialPipe(characteristic: SMPGATT.characteristic)
            let device = MCUmgrSerialDevice(configuration: configuration, now: LinkClock.realTime().now,
                                            holdingRecoveryButton: inRecovery)
            let host = SerialLineDeviceHost(device, pipe: pipe, baud: Reference.baud,
                                            vanishesOnReset: configuration.port == .usbCDCACM)
            await host.start()
            return (host, pipe)
        }

        static func flash(_ pipe: SerialPipe, _ recovery: MCUbootRecovery, framing: SMPStreamFraming = .console,
                          image: String = EngineTestBench.image,
                          edit: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
            try await Reference.flashSMP(pipe, framing: framing, image: image) { options in
                options.deadlines.connect = .seconds(8)
                options.serialRecovery = recovery
                edit(&options)
            }
        }

        static func written(_ outcome: EngineOutcome) -> (version: ImageVersion, hashChecked: Bool)? {
            for event in outcome.events {
                if case .writtenByRecovery(let version, let hashChecked, _) = event { return (version, hashChecked) }
            }
            return nil
        }

        static func confirmed(_ outcome: EngineOutcome) -> Bool {
            outcome.events.contains { if case .versionConfirmed(Self.updated, true, _) = $0 { true } else { false } }
        }

        /// MCUboot's defaults (no parameters, hashes in the list, no echo, progressive erase) on a
        /// USB port that vanishes at the reset: the image lands in the primary slot and runs.
        @Test func recoveryDefaultsTakeTheImage() async throws {
            let (host, pipe) = try await Self.device()
            let outcome = try await Self.flash(pipe, .inRecovery)
            let notes = await host.notes
            #expect(outcome.result == .success(Self.updated), "\(String(describing: outcome.error)) \(notes.suffix(6))")
            #expect(Self.written(outcome)?.hashChecked == true)
            #expect(Self.confirmed(outcome), "the application answered after the reset and reports 1.1.0")
            #expect(!outcome.events.contains { if case .activated = $0 { true } else { false } }, "nothing is marked")
            let (version, confirmed) = await Reference.running(host)
            #expect(version == "1.1.0")
            #expect(confirmed)
            #expect(await host.inspect { ($0 as? MCUmgrSerialDevice)?.secondaryPending } == false, "slot 1 untouched")
            await host.stop()
        }

        /// With `BOOT_MGMT_MCUMGR_PARAMS` the bootloader's 1024-byte buffer sizes the packets, one in flight.
        @Test func recoveryParametersSizeThePackets() async throws {
            let (host, pipe) = try await Self.device {
                $0.recoveryMCUmgrParameters = true
                $0.port = .uart
            }
            let outcome = try await Self.flash(pipe, .inRecovery)
            #expect(outcome.result == .success(Self.updated), "\(String(describing: outcome.error))")
            let facts = outcome.events.compactMap { if case .deviceState(let facts) = $0 { facts } else { nil } }.first
            #expect(facts?.bufferSize == 1024)
            #expect(facts?.bufferCount == 1)
            #expect(outcome.events.contains { if case .connected(let link) = $0 { link.window == 1 } else { false } })
            let counters = await host.inspect { ($0 as? MCUmgrSerialDevice)?.counters }
            #expect(counters?.recoveryBytesDroppedNoBuffer == 0, "\(String(describing: counters))")
            await host.stop()
        }

        /// Built without `BOOT_SERIAL_IMG_GRP_HASH` the list carries versions only: that is what is checked.
        @Test func aListWithoutHashesIsCheckedByVersion() async throws {
            let (host, pipe) = try await Self.device { $0.recoveryImageHash = false }
            let outcome = try await Self.flash(pipe, .inRecovery)
            #expect(outcome.result == .success(Self.updated), "\(String(describing: outcome.error))")
            #expect(Self.written(outcome)?.hashChecked == false)
            await host.stop()
        }

        @Test func rawRecoveryTakesTheImage() async throws {
            let (host, pipe) = try await Self.device {
                $0.recoveryFraming = .raw
                $0.applicationFraming = .raw
            }
            let outcome = try await Self.flash(pipe, .inRecovery, framing: .raw)
            #expect(outcome.result == .success(Self.updated), "\(String(describing: outcome.error))")
            #expect(await Reference.running(host).0 == "1.1.0")
            await host.stop()
        }

        /// `--enter-recovery`: the application resets with boot_mode 1, MCUboot stays in recovery,
        /// takes the image, and boots it.
        @Test func theApplicationIsResetIntoRecovery() async throws {
            let (host, pipe) = try await Self.device(inRecovery: false) {
                $0.osResetBootMode = true
                $0.recoveryOnBootMode = true
            }
            let outcome = try await Self.flash(pipe, .enterFromApplication)
            let notes = await host.notes
            #expect(outcome.result == .success(Self.updated), "\(String(describing: outcome.error)) \(notes.suffix(6))")
            #expect(Self.written(outcome) != nil)
            #expect(Self.confirmed(outcome))
            #expect(await Reference.running(host).0 == "1.1.0")
            #expect(await host.inspect { ($0 as? MCUmgrSerialDevice)?.secondaryPending } == false)
            await host.stop()
        }

        /// An application built without boot mode restarts as itself: said before anything is sent.
        @Test func anApplicationWithoutBootModeIsRefusedBeforeTheUpload() async throws {
            let (host, pipe) = try await Self.device(inRecovery: false)
            let outcome = try await Self.flash(pipe, .enterFromApplication)
            guard case .deviceRejected(let message, _)? = outcome.error else {
                Issue.record("expected a refusal, got \(String(describing: outcome.result))")
                await host.stop()
                return
            }
            #expect(message.contains("came back running its application"))
            #expect(!outcome.started.contains(.transfer) || Self.written(outcome) == nil)
            let slot1 = await host.inspect { $0 as? MCUmgrSerialDevice }?.validImage(inSlot: 1)
            #expect(slot1 == nil, "nothing was uploaded")
            await host.stop()
        }

        /// `,recovery` against a running application: refused from its image list, nothing sent.
        @Test func anApplicationIsNotTakenForTheBootloader() async throws {
            let (host, pipe) = try await Self.device(inRecovery: false)
            let outcome = try await Self.flash(pipe, .inRecovery)
            guard case .deviceRejected(let message, _)? = outcome.error else {
                Issue.record("expected a refusal, got \(String(describing: outcome.result))")
                await host.stop()
                return
            }
            #expect(message.contains("answers as a Zephyr application"))
            #expect(!outcome.started.contains(.transfer))
            await host.stop()
        }

        /// The version rule is dfu's own in recovery (MCUboot has none): the same image again is refused.
        @Test func theSameVersionIsRefusedUnlessAllowed() async throws {
            let (host, pipe) = try await Self.device()
            let outcome = try await Self.flash(pipe, .inRecovery, image: "blinky-ecdsa-p256-1.0.0.signed.bin")
            guard case .precondition? = outcome.error else {
                Issue.record("expected a precondition failure, got \(String(describing: outcome.result))")
                await host.stop()
                return
            }
            let again = try await Self.flash(pipe, .inRecovery, image: "blinky-ecdsa-p256-1.0.0.signed.bin") {
                $0.allowDowngrade = true
            }
            #expect(again.result == .success(ImageVersion(major: 1, minor: 0, revision: 0)), "\(String(describing: again.error))")
            await host.stop()
        }
    }
}
