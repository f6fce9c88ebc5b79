import Foundation

/// What the two batch-kill runs share (`BatchKillRun` over UDP, `NordicBatchKillRun` over serial
/// lines): writing the plan, the killed `dfu batch` and its rerun, and the verdict over every
/// device of the batch. The run is the batch: it completes when every device runs the new image,
/// confirmed, and breaks an invariant when any device does (each invariant once per run).
enum BatchKill {
    /// Writes the plan (`device,image`, one row per device text), runs `dfu batch` killed by
    /// `killSwitch` as `trigger` says, then (after `beforeRerun`) the same batch again, once more
    /// after an exit 6. With a `rerunKill` the rerun is killed too (as `trigger` says) and a third
    /// batch must finish.
    static func run(devices: [String], image: String, key: String, parallel: Int, home: StateHome, runner: ChildRunner,
                    trigger: BatchKillTrigger, killSwitch: KillSwitch, rerunKill: KillSwitch? = nil, expectation: Expectation,
                    beforeRerun: () async -> Void = {}) async throws(FaultsError) -> [AttemptRecord] {
        trigger.name(devices)
        let plan = home.path + "/plan.csv"
        let rows = ["device,image"] + devices.map { csvCell($0) + "," + csvCell(image) }
        do {
            try (rows.joined(separator: "\n") + "\n").write(toFile: plan, atomically: true, encoding: .utf8)
        } catch {
            throw .setup("cannot write the plan \(plan): \(error)")
        }
        let batch = ["batch", plan, "--key", key, "--parallel", String(parallel), "--json"]
        var attempts: [AttemptRecord] = []
        let first = DFUChild(onLine: { trigger.line($0) })
        killSwitch.aim(at: first)
        attempts.append(try await runner.attempt(batch, index: 1, child: first).record)
        killSwitch.disarm()
        trigger.killedBatchEnded()
        guard attempts[0].killed else { return attempts }
        await beforeRerun()
        var rerun: AttemptRecord
        if let rerunKill {
            // Aimed once it runs, as a killed `dfu flash`'s next command is (`ChildRunner`).
            let second = DFUChild()
            rerun = try await runner.attempt(batch, index: 2, child: second, started: { rerunKill.aim(at: second) }).record
            rerunKill.disarm()
            attempts.append(counting(trigger.pickedUp, in: rerun))
            guard rerun.killed else { return attempts }
            await beforeRerun()
            rerun = try await runner.attempt(batch, index: 3).record
            attempts.append(rerun)
        } else {
            rerun = try await runner.attempt(batch, index: 2).record
            attempts.append(counting(trigger.pickedUp, in: rerun))
        }
        if !rerun.hung, expectation.rerunsAfter(rerun.exitStatus) {
            attempts.append(try await runner.attempt(batch, index: attempts.count + 1).record)
        }
        return attempts
    }

    /// A plan cell: quoted when it holds a comma or a quote (`serial:PATH,baud=N`), as RFC 4180 says.
    static func csvCell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The verdict on the whole batch from each device's (`devices`: its verdict and facts, in
    /// plan order) and where the devices were at the kill.
    static func judge(_ attempts: [AttemptRecord], devices: [(verdict: DeviceVerdict, facts: DeviceFacts)],
                      atKill: [BatchKillTrigger.Progress]?, kills: Int = 1, expectation: Expectation) -> (RunOutcome, [Invariant]) {
        var verdict = DeviceVerdict.updated
        var violations: Set<Invariant> = []
        for (index, device) in devices.enumerated() {
            if verdict == .updated, device.verdict != .updated { verdict = .other("device \(index + 1) \(device.verdict.text)") }
            violations.formUnion(InvariantCheck.violations(attempts, device: device.facts, documented: expectation.documentedFailures))
        }
        var outcome = ProcessDeathVerdict.judge(attempts, kills: kills, expectation: expectation, device: verdict)
        if outcome.unexpectedReason == nil, let problem = spreadProblem(atKill) { outcome = .unexpected(problem) }
        return (outcome, Invariant.allCases.filter(violations.contains))
    }

    /// The batch run again, its `resumes` the devices mid-transfer at the kill whose upload it took
    /// up from the device's offset (no new upload session began on them): `dfu batch --json` has no
    /// progress lines to read it from.
    static func counting(_ pickedUp: Int, in record: AttemptRecord) -> AttemptRecord {
        AttemptRecord(index: record.index, exitStatus: record.exitStatus, message: record.message, resumes: pickedUp,
                      firstAcknowledged: nil, hung: record.hung, lastStage: record.lastStage, killed: record.killed)
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

    /// `SIGKILL@43.21% of a device's image: 2 done, 1 mid-transfer, 1 activating, 2 not started`; with
    /// a rerun kill (its share, whether it fired) `, then SIGKILL@21.11% of an image in the rerun`.
    static func describe(share: Double, _ atKill: [BatchKillTrigger.Progress]?,
                         rerun: (share: Double, fired: Bool)? = nil) -> String {
        let first = "SIGKILL@\(KillPoint.percent(share)) of a device's image" + (atKill.map { ": " + progressText($0) } ?? " (never fired)")
        guard let rerun else { return first }
        return first + ", then SIGKILL@\(KillPoint.percent(rerun.share)) of an image in the rerun" + (rerun.fired ? "" : " (not reached)")
    }

    static func progressText(_ atKill: [BatchKillTrigger.Progress]) -> String {
        let done = atKill.filter { $0 == .done }.count
        let mid = atKill.filter { if case .midTransfer = $0 { true } else { false } }.count
        let activating = atKill.filter { $0 == .activating }.count
        let waiting = atKill.filter { $0 == .notStarted }.count
        return "\(done) done, \(mid) mid-transfer, \(activating) activating, \(waiting) not started"
    }
}
