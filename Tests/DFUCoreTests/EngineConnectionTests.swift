@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

extension EngineTests {
    /// Connecting and reconnecting: retries with backoff, devices that do not come back.
    @Suite(.timeLimit(.minutes(1))) struct EngineConnectionTests {
        let v110 = ImageVersion(major: 1, minor: 1, revision: 0)

        @Test func connectRetriesAfterFastFailuresWithinItsDeadline() async throws {
            let bench = try await EngineTestBench.make()
            let connector = ScriptedConnector(bench.connector, failFast: 2)
            let outcome = try await bench.flash(through: connector)
            #expect(outcome.result == .success(v110))
            #expect(connector.attempts >= 3)
            let logs = outcome.events.compactMap { if case .log(let message) = $0 { message } else { nil } }
            #expect(logs.contains { $0.contains("connect attempt 1 failed") })
        }

        /// An adapter switched off (or bluetoothd gone) while connecting: the user must act, so the
        /// run ends at once with the stack's own fix line instead of retrying until the deadline.
        @Test func anUnusableBluetoothStackIsNotRetried() async throws {
            let bench = try await EngineTestBench.make()
            let fix = "the Bluetooth adapter hci0 is powered off: run 'bluetoothctl power on'"
            let connector = ScriptedConnector(bench.connector, failFast: 5, failure: .unavailable(fix))
            let outcome = try await bench.flash(through: connector) { $0.deadlines.connect = .seconds(30) }
            #expect(outcome.exitStatus == .deviceUnreachable)
            #expect(outcome.error?.description.contains(fix) == true, "\(String(describing: outcome.error))")
            #expect(outcome.error?.cause == .link(.unavailable(fix)), "a library caller sees the typed cause")
            #expect(connector.attempts == 1)
            #expect(await bench.device.receivedNoUpload)
        }

        @Test func connectGivesUpWhenTheDeviceStaysAway() async throws {
            let bench = try await EngineTestBench.make()
            let connector = ScriptedConnector(bench.connector, reachable: 0)
            let outcome = try await bench.flash(through: connector) { $0.deadlines.connect = .milliseconds(200) }
            #expect(outcome.exitStatus == .deviceUnreachable)
            #expect(outcome.error?.description.contains("--connect-timeout") == true)
            // It waited for the device under its own 200 ms deadline, not the bench's 5 s.
            #expect(!connector.allowances.isEmpty)
            #expect(connector.allowances.allSatisfy { $0 <= .milliseconds(200) }, "\(connector.allowances)")
            #expect(await bench.device.receivedNoUpload)
        }

        @Test func linkLostForGoodMidUploadIsAResumableInterruption() async throws {
            let bench = try await EngineTestBench.make("sim:fault=disconnect@40%")
            let connector = ScriptedConnector(bench.connector, reachable: 1)
            let outcome = try await bench.flash(through: connector) { $0.deadlines.connect = .milliseconds(300) }
            #expect(outcome.exitStatus == .transferInterrupted)
            #expect(outcome.error?.description.contains("Run the same command again to resume") == true)
            // Whichever gives up first names the cause: the reconnect (its link error) or the upload
            // core's own link-restore deadline, which is the same allowance.
            let cause = outcome.error?.cause
            var lostLink = false
            if case .link? = cause { lostLink = true }
            if case .linkNotRestored? = cause?.protocolError(as: ImageUploadError.self) { lostLink = true }
            if !lostLink { Issue.record("the cause is the lost link, not \(String(describing: cause))") }
            #expect(!outcome.started.contains(.activate))
            // The device keeps its session, so the same update through a working connector resumes it.
            let again = try await bench.flash()
            #expect(again.result == .success(v110))
            let first = try #require(again.progress.first?.acknowledged)
            #expect(first > 0, "resumed, not restarted")
        }

        @Test func ignoresALateDisconnectionOfAnEarlierLink() async throws {
            let bench = try await EngineTestBench.make("sim:fault=disconnect@40%")
            let outcome = try await bench.flash(through: LateEventConnector(bench.connector))
            #expect(outcome.result == .success(v110))
            #expect(outcome.warnings.filter { $0.contains("was lost") }.count == 1, "\(outcome.warnings)")
            #expect(outcome.resumes.count == 1)
        }

        @Test func deviceThatNeverComesBackAfterTheResetFailsTheCheck() async throws {
            let bench = try await EngineTestBench.make()
            let connector = ScriptedConnector(bench.connector, reachable: 1)
            let outcome = try await bench.flash(through: connector) { $0.deadlines.reboot = .milliseconds(300) }
            #expect(outcome.exitStatus == .postRebootCheckFailed)
            #expect(outcome.error?.description.contains("--reboot-timeout") == true)
            #expect(outcome.started.last == .reconnect)
        }

        @Test(arguments: [("no SMP service", StubPeripheral.withoutSMP), ("does not allow notify", StubPeripheral.smpWithoutNotify)])
        func deviceWithoutUsableSMPIsUnreachableAndSaysWhy(expected: String, peripheral: StubPeripheral) async throws {
            let peer = PeerIdentity("C0:11:22:33:44:55")
            let outcome = try await EngineTestBench.flash(peer, through: try await peripheral.serve(as: peer))
            #expect(outcome.exitStatus == .deviceUnreachable)
            #expect(outcome.error?.description.contains(expected) == true, "\(String(describing: outcome.error))")
            guard case .layoutMissing(let problem)? = outcome.error?.cause else {
                Issue.record("cause: \(String(describing: outcome.error?.cause))")
                return
            }
            #expect(problem.contains(expected))
        }

        @Test func deviceThatNeverAnswersIsUnreachable() async throws {
            let peer = PeerIdentity("C0:11:22:33:44:55")
            let outcome = try await EngineTestBench.flash(peer, through: try await StubPeripheral.silentSMP.serve(as: peer)) {
                $0.deadlines.request = .milliseconds(100)
            }
            #expect(outcome.exitStatus == .deviceUnreachable)
            #expect(outcome.error?.description.contains("did not answer the image list request") == true,
                    "\(String(describing: outcome.error))")
            guard case .timeout? = outcome.error?.cause?.protocolError(as: SMPClientError.self) else {
                Issue.record("cause: \(String(describing: outcome.error?.cause))")
                return
            }
        }
    }
}
