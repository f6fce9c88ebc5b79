import DFUCore
import DeviceSim
import Transport

/// One run of `kill-rerun`, `kill-resume` or their variants: a fresh virtual device from the run's
/// seed served over UDP on 127.0.0.1 (as `dfu sim --serve udp:` serves it, on the campaign's model
/// clock) behind a counting relay, on a pseudo-terminal (`serial-kill-*`), or behind the BlueZ
/// stand-in (`bluez-kill-*`, `KilledDevice`);
/// the `dfu` binary flashing it (`dfu flash IMAGE --key KEY --device udp:…|serial:…|ADDRESS --json`, a
/// journal directory of the run's own) and killed with SIGKILL at the run's `KillPoint`; then the
/// update finished by the same command or by `dfu resume --json`, once more after an exit 6; then
/// the device's own state. `also` adds a second kill (of the first
/// `dfu resume`) or a device reset at the kill or in the command that finishes (`FlashDeathPlan`).
///
/// What a death over BLE adds: bluetoothd (the stand-in) keeps the LE link a dead client opened,
/// with its `AcquireWrite`/`AcquireNotify` sockets closed under it, so the next `dfu` meets a
/// device that is still connected, or one that reset while no `dfu` ran.
struct FlashKillRun {
    let scenario: Scenario
    let finish: ProcessDeath.Finish
    var also: ProcessDeath.Also = .nothing
    /// Where the children reach the device (`KilledDevice`).
    var over: ProcessDeath.Over = .wire
    let run: Int
    let seed: UInt64
    let inputs: FlashInputs
    let files: ProcessInputs
    let timeScale: Double
    let hangGuard: Duration

    func perform() async throws(FaultsError) -> RunRecord {
        let plan = FlashDeathPlan(also, seed: seed)
        let text = "sim:seed=\(seed)" + (plan.deviceFault.map { ",fault=\($0)" } ?? "") + ",timescale=\(timeScale)"
        let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
        let schedule = KillSchedule(plan.kills, totalBytes: inputs.image.count)
        let counter = UploadCounter(onAdd: { schedule.sent($0) })
        let home = try StateHome.make()
        let served: KilledDevice<VirtualDevice>
        do throws(FaultsError) {
            served = try await KilledDevice.serve(setup, over: over, schedule: schedule, counter: counter, directory: home.path,
                                                  scenario: scenario.name)
        } catch {
            home.remove()
            throw error
        }
        let before = await served.snapshot()
        let flash = ["flash", files.imagePath, "--key", files.keyPath, "--device", served.device, "--json"]

        let modelStart = setup.clock.now
        let wallStart = ContinuousClock.now
        let (attempts, failure) = await ChildRunner(files: files, home: home, hangGuard: hangGuard, environment: served.environment)
            .killThenFinish(flash, schedule: schedule, finish: finish, expectation: scenario.expectation,
                            afterKill: served.afterKill)
        let modelEnd = setup.clock.now
        let wallEnd = ContinuousClock.now
        let final = await served.snapshot()
        await served.stop()
        home.remove()
        if let failure { throw failure }

        let previousHash = before.runningImage?.hash
        let device = DeviceVerdict(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
        let facts = DeviceFacts(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
        let outcome = ProcessDeathVerdict.judge(attempts, kills: plan.kills.count, expectation: scenario.expectation, device: device)
        let violations = InvariantCheck.violations(attempts, device: facts, documented: scenario.expectation.documentedFailures)
        // The device's faults with their points drawn (`reboot@43.21%`), as the other rows show them.
        let deviceFaults = setup.options.faults.map { "\($0)+" }.joined()
        let faults = deviceFaults + ProcessDeathVerdict.kills(plan.kills, attempts)
        return RunRecord(run: run, seed: seed, device: text, faults: faults,
                         attempts: attempts, uploadedBytes: counter.total, imageBytes: inputs.image.count,
                         modelSeconds: modelStart.duration(to: modelEnd).seconds,
                         wallSeconds: (wallEnd - wallStart).seconds, outcome: outcome, violations: violations)
    }
}
