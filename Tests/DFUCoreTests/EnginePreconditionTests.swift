@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

extension EngineTests {
    /// Everything that must stop an update before the first upload byte: each ends with exit 4 (or 3
    /// for the image itself) and the device has received nothing.
    @Suite(.timeLimit(.minutes(1))) struct EnginePreconditionTests {
        let v110 = ImageVersion(major: 1, minor: 1, revision: 0)

        @Test func lowBatteryRefusesBeforeTheFirstByte() async throws {
            let bench = try await EngineTestBench.make("sim:battery=15")
            let outcome = try await bench.flash()
            #expect(outcome.error == .precondition([.batteryLow(level: 15, minimum: 30)]))
            #expect(outcome.exitStatus == .preconditionNotMet)
            #expect(!outcome.started.contains(.transfer))
            #expect(await bench.device.receivedNoUpload)
        }

        @Test func lowerBatteryLimitLetsTheUpdateRun() async throws {
            let bench = try await EngineTestBench.make("sim:battery=15")
            let outcome = try await bench.flash { $0.minimumBattery = 10 }
            #expect(outcome.result == .success(v110))
        }

        @Test func sameVersionIsRefusedUnlessDowngradeIsAllowed() async throws {
            let bench = try await EngineTestBench.make("sim:version=1.1.0")
            let refused = try await bench.flash()
            #expect(refused.error == .precondition([.notNewer(image: v110, running: v110)]))
            #expect(await bench.device.receivedNoUpload)
            let allowed = try await bench.flash { $0.allowDowngrade = true }
            #expect(allowed.result == .success(v110))
        }

        @Test func imageLargerThanTheSlotIsRefused() async throws {
            let bench = try await EngineTestBench.make("sim:slot_size=384K")
            let image = try Samples.image("bench-512k-ecdsa-p256-1.1.0.signed.bin")
            let outcome = try await bench.flash(image)
            guard case .precondition(let failures)? = outcome.error, case .imageTooLarge(let size, let slot)? = failures.first else {
                Issue.record("expected imageTooLarge, got \(outcome.result)")
                return
            }
            #expect(size == image.count && slot < size)
            #expect(await bench.device.receivedNoUpload)
        }

        @Test func hostOnBatteryIsRefusedUnlessAllowed() async throws {
            let bench = try await EngineTestBench.make()
            let refused = try await bench.flash(host: .battery(level: 40))
            #expect(refused.error == .precondition([.hostOnBattery(level: 40)]))
            #expect(await bench.device.receivedNoUpload)
            let allowed = try await bench.flash(host: .battery(level: 40)) { $0.allowHostOnBattery = true }
            #expect(allowed.result == .success(v110))
        }

        @Test func everyFailedPreconditionIsReportedAtOnce() async throws {
            let bench = try await EngineTestBench.make("sim:battery=5,version=2.0.0")
            let outcome = try await bench.flash(host: .battery(level: nil))
            guard case .precondition(let failures)? = outcome.error else {
                Issue.record("expected a precondition failure, got \(outcome.result)")
                return
            }
            #expect(failures.count == 3)
        }

        @Test func tamperedImageIsRefusedBeforeConnecting() async throws {
            let bench = try await EngineTestBench.make()
            let outcome = try await bench.flash(try Samples.broken("tampered-body.bin"))
            #expect(outcome.exitStatus == .imageInvalid)
            #expect(outcome.started == [.verifyImage])
            #expect(await bench.connector.latestGeneration == LinkGeneration(0), "never connected")
        }

        @Test func imageSignedWithAnotherKeyIsRefusedBeforeConnecting() async throws {
            let bench = try await EngineTestBench.make()
            let outcome = try await bench.flash(try Samples.broken("signed-with-other-key.bin"))
            #expect(outcome.exitStatus == .imageInvalid)
            #expect(await bench.connector.latestGeneration == LinkGeneration(0))
        }

        @Test func unknownDeviceIsUnreachable() async throws {
            let connector = MemoryConnector(clock: .unpaced())
            var options = UpdateOptions()
            options.deadlines = EngineTestBench.fastDeadlines
            let engine = UpdateEngine(image: try Samples.image(EngineTestBench.image), imageName: "test.bin", key: nil,
                                      options: options, target: .init(connector: connector, peer: PeerIdentity("C0:00:00:00:00:01")),
                                      hostPower: .mains)
            let result = await engine.run { _ in }
            guard case .failure(let error) = result else {
                Issue.record("expected a failure, got \(result)")
                return
            }
            #expect(error.exitStatus == .deviceUnreachable)
            #expect(!error.description.contains("C0:00:00:00:00:01"), "identity shortened: \(error)")
        }
    }
}
