@testable import DFUCore
import DeviceSim
import ExitCodes
import NordicTestSupport
import Testing
import Transport

extension EngineTests {
    /// Packages with a system part and an application (nordic-secure-dfu.md §3.5) against the
    /// virtual nRF52: each part in its own connection, the system part first; after a SoftDevice
    /// the bootloader comes back in DFU mode, after a bootloader alone the application starts and
    /// is switched into DFU mode again.
    @Suite(.timeLimit(.minutes(1))) struct NordicMultiPartEngineTests {
        typealias Bench = NordicSimEngineTests.Bench

        static func engine(_ bench: Bench, package: [UInt8], connector: (any Connector)? = nil) throws -> UpdateEngine {
            var options = UpdateOptions()
            options.deadlines = EngineTestBench.fastDeadlines
            return UpdateEngine(image: package, imageName: "multi.zip", key: try NordicSamples.key(), options: options,
                                target: .init(connector: connector ?? bench.connector, peer: bench.sim.applicationIdentity),
                                hostPower: .mains)
        }

        static func flash(_ bench: Bench, package: [UInt8], connector: (any Connector)? = nil) async throws -> EngineOutcome {
            let run = try engine(bench, package: package, connector: connector).start()
            var events: [UpdateEvent] = []
            for await event in run.events {
                events.append(event)
            }
            return EngineOutcome(events: events, result: await run.result.value)
        }

        static func softDeviceBootloaderAndApplication(blVersion: UInt32 = 2) throws -> [UInt8] {
            NordicTestPackage([try .softDeviceBootloader(version: blVersion), try .sampleApplication()]).bytes
        }

        static func parts(_ outcome: EngineOutcome) -> [String] {
            outcome.events.compactMap { if case .partStarted(let part) = $0 { part.label } else { nil } }
        }

        @Test func softDeviceBootloaderThenApplicationLeavesTheNewApplicationRunning() async throws {
            let bench = try await NordicSimEngineTests.bench()
            let outcome = try await Self.flash(bench, package: try Self.softDeviceBootloaderAndApplication())
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            #expect(Self.parts(outcome) == ["softdevice_bootloader 1/2", "application 2/2"])
            #expect(outcome.progress.first?.part?.label == "softdevice_bootloader 1/2")
            #expect(outcome.progress.last?.part?.label == "application 2/2")
            let device = await bench.sim.snapshot
            #expect(device.applicationVersion == 3)
            #expect(device.currentSettings.bootloaderVersion == 2)
            // The bootloader came back in DFU mode after the SoftDevice, then the new application started.
            #expect(device.boots.map(\.target) == [.bootloader, .bootloader, .application(version: 3)])
            #expect(device.currentIdentity == bench.sim.applicationIdentity)
        }

        @Test func bootloaderThenApplicationSwitchesTheApplicationIntoDFUModeAgain() async throws {
            let bench = try await NordicSimEngineTests.bench()
            let package = NordicTestPackage([try .sampleBootloader(), try .sampleApplication()]).bytes
            let outcome = try await Self.flash(bench, package: package)
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            #expect(Self.parts(outcome) == ["bootloader 1/2", "application 2/2"])
            let device = await bench.sim.snapshot
            #expect(device.applicationVersion == 3)
            #expect(device.currentSettings.bootloaderVersion == 2)
            // After the bootloader alone the old application starts, and buttonless DFU again.
            #expect(device.boots.map(\.target) == [.bootloader, .application(version: 1), .bootloader, .application(version: 3)])
        }

        @Test func aLinkDropDuringTheApplicationPartIsResumed() async throws {
            let bench = try await NordicSimEngineTests.bench()
            // The second connection to the bootloader (the application part's, after the reset)
            // drops 20 kB in: armed by the connector itself, so no event has to arrive in time.
            let connector = NthLinkFault(inner: bench.connector, peer: bench.sim.bootloaderIdentity, nth: 2,
                                         fault: .dropAfterBytes(20_000))
            let outcome = try await Self.flash(bench, package: try Self.softDeviceBootloaderAndApplication(), connector: connector)
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            #expect(outcome.warnings.contains { $0.contains("was lost") }, "\(outcome.warnings)")
            #expect(outcome.resumes.count == 1)
            #expect(await bench.sim.snapshot.applicationVersion == 3)
        }

        /// Stopped during the application part, the same command run again finds the bootloader
        /// holding the application's init packet and continues there, not with the system part.
        @Test func anInterruptedRunRunAgainContinuesWithTheApplication() async throws {
            let bench = try await NordicSimEngineTests.bench("sdk=15")
            let package = try Self.softDeviceBootloaderAndApplication()
            let first = try Self.engine(bench, package: package).start()
            for await event in first.events {
                if case .progress(let progress) = event, progress.part?.number == 2, progress.acknowledged >= 16_384 {
                    first.result.cancel()
                }
            }
            guard case .failure = await first.result.value else {
                Issue.record("the first run was meant to be stopped before it ended")
                return
            }
            #expect(await bench.sim.snapshot.currentIdentity == bench.sim.bootloaderIdentity, "left in DFU mode")

            let second = try await Self.flash(bench, package: package)
            #expect(second.exitStatus == .success, "\(String(describing: second.error))")
            #expect(Self.parts(second) == ["application 2/2"])
            #expect(second.warnings.contains { $0.contains("already receiving application 2/2") }, "\(second.warnings)")
            let resumedAt = try #require(second.progress.first?.acknowledged)
            #expect(resumedAt >= 16_384, "continued from the bootloader's offset, not from 0")
            let device = await bench.sim.snapshot
            #expect(device.applicationVersion == 3)
            #expect(device.currentSettings.bootloaderVersion == 2)
        }

        /// Stopped once the system part was activated, before the application's init packet: the
        /// bootloader waits in DFU mode with nothing held, so the run again sends the system part
        /// first, which the bootloader now declines as not newer, and then the application.
        @Test func aRunStoppedBetweenThePartsRunAgainSkipsTheInstalledSystemPart() async throws {
            let bench = try await NordicSimEngineTests.bench()
            let package = try Self.softDeviceBootloaderAndApplication()
            let first = try Self.engine(bench, package: package).start()
            for await event in first.events {
                if case .rebooting = event { first.result.cancel() }
            }
            guard case .failure = await first.result.value else {
                Issue.record("the first run was meant to be stopped before it ended")
                return
            }
            #expect(await bench.sim.snapshot.currentSettings.bootloaderVersion == 2, "the system part was activated")
            #expect(await bench.sim.snapshot.applicationVersion == 1)

            let second = try await Self.flash(bench, package: package)
            #expect(second.exitStatus == .success, "\(String(describing: second.error))")
            #expect(second.warnings.contains { $0.contains("declined softdevice_bootloader 1/2 as not newer") }, "\(second.warnings)")
            #expect(await bench.sim.snapshot.applicationVersion == 3)
        }

        @Test func aSystemPartThatIsNotNewerIsSkippedAndTheApplicationStillFlashed() async throws {
            let bench = try await NordicSimEngineTests.bench("bl_version=2")
            let outcome = try await Self.flash(bench, package: try Self.softDeviceBootloaderAndApplication(blVersion: 2))
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            #expect(outcome.warnings.contains { $0.contains("declined softdevice_bootloader 1/2 as not newer")
                && $0.contains("FW VERSION TOO LOW") }, "\(outcome.warnings)")
            let device = await bench.sim.snapshot
            #expect(device.applicationVersion == 3)
            // Nothing but the application was activated: no reset between the parts.
            #expect(device.boots.map(\.target) == [.bootloader, .application(version: 3)])
        }

        @Test func anyOtherRejectionOfTheSystemPartFails() async throws {
            let bench = try await NordicSimEngineTests.bench("sd=0x0102")
            let outcome = try await Self.flash(bench, package: try Self.softDeviceBootloaderAndApplication())
            #expect(outcome.exitStatus == .deviceRejected, "\(String(describing: outcome.error))")
            #expect(outcome.error?.description.contains("SD VERSION") == true || outcome.error?.description.contains("0x07") == true,
                    "\(String(describing: outcome.error))")
            #expect(await bench.sim.snapshot.applicationVersion == 1)
        }

        @Test func aPackageWithTwoSystemPartsIsAUsageError() async throws {
            let bench = try await NordicSimEngineTests.bench()
            let package = NordicTestPackage([try .softDeviceBootloader(version: 2), try .sampleBootloader(),
                                             try .sampleApplication()]).bytes
            let outcome = try await Self.flash(bench, package: package)
            #expect(outcome.exitStatus == .usage, "\(String(describing: outcome.error))")
            #expect(outcome.error?.description.contains("softdevice_bootloader + bootloader + application") == true,
                    "\(String(describing: outcome.error))")
        }
    }
}

/// Arms `fault` on the `nth` connection to `peer` through a memory connector, just before it is made.
private struct NthLinkFault: Connector {
    let inner: MemoryConnector
    let peer: PeerIdentity
    let nth: Int
    let fault: LinkFault
    private let count = Locked(0)

    init(inner: MemoryConnector, peer: PeerIdentity, nth: Int, fault: LinkFault) {
        self.inner = inner
        self.peer = peer
        self.nth = nth
        self.fault = fault
    }

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        if peer == self.peer, count.withLock({ $0 += 1; return $0 }) == nth {
            await inner.scheduleFault(fault, for: peer)
        }
        return try await inner.connect(to: peer, deadline: deadline)
    }
}
