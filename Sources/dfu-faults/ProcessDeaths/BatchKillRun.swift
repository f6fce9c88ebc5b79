import DFUCore
import DeviceSim
import Foundation
import Transport

/// One run of `batch-kill`: `devices` fresh virtual devices from the run's seed, each served over
/// UDP on 127.0.0.1 behind a counting relay; `dfu batch PLAN --key KEY --parallel N --json` (a
/// journal directory of the run's own) killed with SIGKILL once one device is done and another has
/// been sent a share of its image drawn from the seed (`BatchKillTrigger`); then the same `dfu
/// batch` again, once more after an exit 6. The run is the batch: it completes when every device
/// runs the new image, confirmed, and breaks an invariant when any device does.
struct BatchKillRun {
    let scenario: Scenario
    let devices: Int
    let parallel: Int
    let run: Int
    let seed: UInt64
    let inputs: FlashInputs
    let files: ProcessInputs
    let timeScale: Double
    let hangGuard: Duration

    /// One device of the batch and what serves it.
    private struct Served {
        let server: VirtualDeviceUDPServer
        let relay: UDPRelay
        let before: VirtualDevice
    }

    func perform() async throws(FaultsError) -> RunRecord {
        let text = "sim:seed=\(seed),timescale=\(timeScale)"
        let share = NordicFaults.share(seed: seed, index: 0)
        let killSwitch = KillSwitch()
        let trigger = BatchKillTrigger(devices: devices, threshold: Int(share * Double(inputs.image.count)),
                                       imageBytes: inputs.image.count, killSwitch: killSwitch)
        var served: [Served] = []
        var clock: LinkClock?
        var failure: FaultsError?
        do throws(FaultsError) {
            for index in 0 ..< devices {
                let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
                clock = clock ?? setup.clock
                let server: VirtualDeviceUDPServer
                do throws(UDPServeError) {
                    server = try await VirtualDeviceUDPServer.serve(setup.options, at: "127.0.0.1:0", clock: setup.clock) { event in
                        if case .uploadStarted = event { trigger.uploadStarted(on: index) }
                    }
                } catch {
                    throw .setup("scenario \(scenario.name): cannot serve device \(index + 1) over UDP: \(error)")
                }
                let relay: UDPRelay
                do throws(FaultsError) {
                    relay = try UDPRelay.start(to: server.localAddress) { bytes in trigger.sent(bytes, to: index) }
                } catch {
                    await server.stop()
                    throw error
                }
                served.append(Served(server: server, relay: relay, before: await server.snapshot))
            }
        } catch {
            failure = error
        }
        let home: StateHome?
        do throws(FaultsError) { home = try StateHome.make() } catch {
            home = nil
            failure = failure ?? error
        }
        guard let home, let clock, failure == nil else {
            await stop(served)
            home?.remove()
            throw failure ?? .setup("scenario \(scenario.name): no device served")
        }

        let names = served.map { "udp:\($0.relay.address)" }
        trigger.name(names)
        let plan = home.path + "/plan.csv"
        let rows = ["device,image"] + names.map { "\($0),\(files.imagePath)" }
        let batch = ["batch", plan, "--key", files.keyPath, "--parallel", String(parallel), "--json"]

        let modelStart = clock.now
        let wallStart = ContinuousClock.now
        var attempts: [AttemptRecord] = []
        do throws(FaultsError) {
            do {
                try (rows.joined(separator: "\n") + "\n").write(toFile: plan, atomically: true, encoding: .utf8)
            } catch {
                throw .setup("cannot write the plan \(plan): \(error)")
            }
            let runner = ChildRunner(files: files, home: home, hangGuard: hangGuard)
            let first = DFUChild(onLine: { trigger.line($0) })
            killSwitch.aim(at: first)
            attempts.append(try await runner.attempt(batch, index: 1, child: first).record)
            killSwitch.disarm()
            trigger.killedBatchEnded()
            if attempts[0].killed {
                let rerun = try await runner.attempt(batch, index: 2).record
                attempts.append(Self.counting(trigger.pickedUp, in: rerun))
                if !rerun.hung, scenario.expectation.rerunsAfter(rerun.exitStatus) {
                    attempts.append(try await runner.attempt(batch, index: 3).record)
                }
            }
        } catch {
            failure = error
        }
        let modelEnd = clock.now
        let wallEnd = ContinuousClock.now
        var finals: [VirtualDevice] = []
        for device in served { finals.append(await device.server.snapshot) }
        await stop(served)
        home.remove()
        if let failure { throw failure }

        var verdict = DeviceVerdict.updated
        var violations: Set<Invariant> = []
        for (index, final) in finals.enumerated() {
            let previousHash = served[index].before.runningImage?.hash
            let device = DeviceVerdict(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
            if verdict == .updated, device != .updated { verdict = .other("device \(index + 1) \(device.text)") }
            let facts = DeviceFacts(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
            violations.formUnion(InvariantCheck.violations(attempts, device: facts, documented: scenario.expectation.documentedFailures))
        }
        var outcome = ProcessDeathVerdict.judge(attempts, expectation: scenario.expectation, device: verdict)
        let atKill = trigger.atKill
        if outcome.unexpectedReason == nil, let problem = Self.spreadProblem(atKill) { outcome = .unexpected(problem) }
        return RunRecord(run: run, seed: seed, device: "\(devices) × \(text)", faults: Self.describe(share: share, atKill),
                         attempts: attempts, uploadedBytes: trigger.sent.reduce(0, +), imageBytes: devices * inputs.image.count,
                         modelSeconds: modelStart.duration(to: modelEnd).seconds, wallSeconds: (wallEnd - wallStart).seconds,
                         outcome: outcome, violations: Invariant.allCases.filter(violations.contains))
    }

    /// The batch run again, its `resumes` the devices mid-transfer at the kill whose upload it took
    /// up from the device's offset (no new upload session began on them): `dfu batch --json` has no
    /// progress lines to read it from.
    static func counting(_ pickedUp: Int, in record: AttemptRecord) -> AttemptRecord {
        AttemptRecord(index: record.index, exitStatus: record.exitStatus, message: record.message, resumes: pickedUp,
                      firstAcknowledged: nil, hung: record.hung, lastStage: record.lastStage)
    }

    /// Why the kill did not come where it must (one device done, one mid-transfer, one not
    /// started), or nil.
    static func spreadProblem(_ atKill: [BatchKillTrigger.Progress]?) -> String? {
        guard let atKill else { return "the batch was never killed: no device passed its share while another was done" }
        let mid = atKill.contains { if case .midTransfer = $0 { true } else { false } }
        guard atKill.contains(.done), mid, atKill.contains(.notStarted) else {
            return "the kill came at \(progressText(atKill)), not with devices done, mid-transfer and not started"
        }
        return nil
    }

    /// `SIGKILL@43.21% of a device's image: 2 done, 1 mid-transfer, 1 activating, 2 not started`.
    static func describe(share: Double, _ atKill: [BatchKillTrigger.Progress]?) -> String {
        "SIGKILL@\(KillPoint.percent(share)) of a device's image" + (atKill.map { ": " + progressText($0) } ?? " (never fired)")
    }

    static func progressText(_ atKill: [BatchKillTrigger.Progress]) -> String {
        let done = atKill.filter { $0 == .done }.count
        let mid = atKill.filter { if case .midTransfer = $0 { true } else { false } }.count
        let activating = atKill.filter { $0 == .activating }.count
        let waiting = atKill.filter { $0 == .notStarted }.count
        return "\(done) done, \(mid) mid-transfer, \(activating) activating, \(waiting) not started"
    }

    private func stop(_ served: [Served]) async {
        for device in served {
            await device.relay.stop()
            await device.server.stop()
        }
    }
}
