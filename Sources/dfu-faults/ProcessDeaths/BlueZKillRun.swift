import DeviceSim
import Transport

/// One run of `bluez-kill-rerun` or `bluez-kill-resume`: a fresh virtual device from the run's
/// seed behind the BlueZ stand-in on a private dbus-daemon of the run's own (as the `bluez` link
/// serves it); the `dfu` binary flashing it by its address (`dfu flash IMAGE --key KEY --device
/// ADDRESS --json`, with `DBUS_SYSTEM_BUS_ADDRESS` naming that bus) and killed with SIGKILL once
/// the device has received a share of the image drawn from the seed; then the update finished by
/// the same command or by `dfu resume --json`, once more after an exit 6; then the device's state.
///
/// What a BLE death adds to the UDP rows: bluetoothd (the stand-in) keeps the LE link a dead
/// client opened, with its `AcquireWrite`/`AcquireNotify` sockets closed under it, so the next
/// `dfu` meets a device that is still connected. Only shares of the transfer: the activation's
/// steps are killed over UDP, where the device's own events time them.
struct BlueZKillRun {
    let scenario: Scenario
    let finish: ProcessDeath.Finish
    let run: Int
    let seed: UInt64
    let inputs: FlashInputs
    let files: ProcessInputs
    let timeScale: Double
    let hangGuard: Duration

    func perform() async throws(FaultsError) -> RunRecord {
        let text = "sim:seed=\(seed),timescale=\(timeScale)"
        let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
        let plan = FlashDeathPlan(.nothing, seed: seed, transferOnly: true)
        let schedule = KillSchedule(plan.kills, totalBytes: inputs.image.count)
        // Counted as the stand-in hands the device what dfu wrote into its sockets.
        let counter = UploadCounter(onAdd: { schedule.sent($0) })
        let peripheral: VirtualPeripheral
        do throws(SimOptionsError) {
            peripheral = try await VirtualPeripheral.serve(setup.options, on: setup.connector)
        } catch {
            throw SimSetup.serveFailed(scenario.name, error)
        }
        var device = BlueZBus.device(peripheral.identity, name: "dfu-faults", services: [DeviceGATT.smpService], on: setup.connector)
        device.connector = CountingConnector(inner: setup.connector, counter: counter)
        let bus = try await BlueZBus.serve([device], scenario: scenario.name)
        let home: StateHome
        do throws(FaultsError) { home = try StateHome.make() } catch {
            await bus.stop()
            throw error
        }
        let before = await peripheral.snapshot
        let flash = ["flash", files.imagePath, "--key", files.keyPath, "--device", peripheral.identity.rawValue, "--json"]

        let modelStart = setup.clock.now
        let wallStart = ContinuousClock.now
        let runner = ChildRunner(files: files, home: home, hangGuard: hangGuard, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.busAddress])
        let (attempts, failure) = await runner.killThenFinish(flash, schedule: schedule, finish: finish, expectation: scenario.expectation)
        let modelEnd = setup.clock.now
        let wallEnd = ContinuousClock.now
        let final = await peripheral.snapshot
        await bus.stop()
        home.remove()
        if let failure { throw failure }

        let previousHash = before.runningImage?.hash
        let verdict = DeviceVerdict(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
        let facts = DeviceFacts(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
        let outcome = ProcessDeathVerdict.judge(attempts, kills: plan.kills.count, expectation: scenario.expectation, device: verdict)
        let violations = InvariantCheck.violations(attempts, device: facts, documented: scenario.expectation.documentedFailures)
        return RunRecord(run: run, seed: seed, device: text, faults: ProcessDeathVerdict.kills(plan.kills, attempts),
                         attempts: attempts, uploadedBytes: counter.total, imageBytes: inputs.image.count,
                         modelSeconds: modelStart.duration(to: modelEnd).seconds,
                         wallSeconds: (wallEnd - wallStart).seconds, outcome: outcome, violations: violations)
    }
}
