@testable import DFUCore
import ExitCodes
import ReferenceDevices
import Testing
import Transport

extension EngineTests {
    /// The engine against the nRF5 SDK device written from the SDK's sources by hands that never
    /// read dfu's client or its simulator (`Sources/ReferenceDevices`, docs/test-bluez.md "Device
    /// models we did not write"): the same updates as against `DeviceSim`, as an independent check.
    @Suite(.timeLimit(.minutes(1))) struct ReferenceDeviceEngineTests {
        struct Bench {
            let connector: MemoryConnector
            let device: SDKPeripheral
        }

        /// At a hundredth of real time (the model's timers need a paced clock).
        static func bench(_ configure: (inout SDKDeviceConfiguration) -> Void = { _ in },
                          profile: LinkProfile = .typical1M) async throws -> Bench {
            let clock = try #require(LinkClock(timeScale: 0.01))
            let connector = MemoryConnector(clock: clock)
            var configuration = SDKDeviceConfiguration(publicKey: try NordicSamples.key())
            // Its 120 s inactivity timeout is 1.2 s here, less than the 5 s before a last-resort
            // name is considered: off, as NRF_BL_DFU_INACTIVITY_TIMEOUT_MS 0 turns it off.
            configuration.inactivityTimeout = .zero
            configure(&configuration)
            return Bench(connector: connector, device: await SDKPeripheral.serve(configuration, on: connector, profile: profile))
        }

        static func flash(_ bench: Bench, configure: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
            var options = UpdateOptions()
            options.deadlines = EngineTestBench.fastDeadlines
            options.deadlines.connect = .seconds(15) // room for the 5 s before a last-resort name
            // Its application reports its firmware revision as the bare app_version ("3"): what
            // an application reports there is its own choice, so the device's state is checked.
            options.expectedVersion = "3"
            configure(&options)
            let engine = UpdateEngine(image: try Samples.bytes("nordic/app-signed-3.zip"), imageName: "app-signed-3.zip",
                                      key: try NordicSamples.key(), options: options,
                                      target: .init(connector: bench.connector, peer: bench.device.applicationIdentity),
                                      hostPower: .mains)
            let run = engine.start()
            var events: [UpdateEvent] = []
            for await event in run.events { events.append(event) }
            return EngineOutcome(events: events, result: await run.result.value)
        }

        static func expectUpdated(_ outcome: EngineOutcome, _ bench: Bench) async {
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            #expect(await bench.device.runningApplicationVersion == 3)
        }

        static func resumes(_ outcome: EngineOutcome) -> Int {
            outcome.events.filter { if case .resumed = $0 { true } else { false } }.count
        }

        @Test func updatesTheReferenceDevice() async throws {
            let bench = try await Self.bench()
            await Self.expectUpdated(try await Self.flash(bench), bench)
            #expect(await bench.device.bootloaderName.hasPrefix("Dfu"), "named by dfu through set-name")
        }

        @Test func aBootloaderAtAnAddressOfItsOwnIsFoundByItsName() async throws {
            let bench = try await Self.bench { $0.bootloaderAddress = .fixed(PeerIdentity("D4:01:02:03:04:05")) }
            await Self.expectUpdated(try await Self.flash(bench), bench)
        }

        @Test func anUnnamedBootloaderAtAnAddressOfItsOwnIsFoundAsTheOnlyDfuTarg() async throws {
            let bench = try await Self.bench {
                $0.bootloaderAddress = .fixed(PeerIdentity("D4:01:02:03:04:05"))
                $0.buttonless = .setNameNotSupported
            }
            await Self.expectUpdated(try await Self.flash(bench), bench)
        }

        @Test func anApplicationWithoutTheAsyncSVCIIsEnteredWithoutAName() async throws {
            let bench = try await Self.bench {
                $0.bootloaderAddress = .fixed(PeerIdentity("D4:01:02:03:04:05"))
                $0.buttonless = .asyncSVCIMissing
            }
            let outcome = try await Self.flash(bench)
            await Self.expectUpdated(outcome, bench)
            #expect(outcome.events.contains { if case .warning(let text) = $0 { text.contains("restarted when asked to name") } else { false } })
        }

        /// Issue 18's first case: the link drops right after the bootloader answered a Create, after
        /// an Execute, and inside an object, on SDK 17 (which forgets its data progress) and 15.
        @Test(arguments: [SDKVersion.v17_0, .v15_0])
        func dropsAfterCreateAfterExecuteAndInsideAnObjectAreResumed(sdk: SDKVersion) async throws {
            let bench = try await Self.bench {
                $0.sdkVersion = sdk
                $0.faults = SDKFaultPlan(dropAfterCreate: 2, dropAfterExecute: 4,
                                         dropInsideDataObject: .init(object: 7, bytes: 2_000))
            }
            let outcome = try await Self.flash(bench)
            await Self.expectUpdated(outcome, bench)
            #expect(Self.resumes(outcome) == 3, "\(outcome.events)")
        }

        /// The same drops behind a host that, like bluetoothd, reports them only after failing the
        /// next Control Point write with ATT 0x0E.
        @Test func dropsReportedLateByTheHostAreResumed() async throws {
            let profile = try LinkProfile(phy: .le1M, connectionInterval: .milliseconds(30), attMTU: 247,
                                          dropReportDelay: .milliseconds(60))
            let bench = try await Self.bench({ $0.faults = SDKFaultPlan(dropAfterCreate: 2, dropAfterExecute: 4) },
                                             profile: profile)
            let outcome = try await Self.flash(bench)
            await Self.expectUpdated(outcome, bench)
            #expect(Self.resumes(outcome) == 2)
        }
    }
}
