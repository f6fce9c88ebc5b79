import DFUCore
import DeviceSim
import Foundation
import SerialTransport
import Transport

/// One run of `nordic-kill-rerun` or `nordic-kill-resume`: a fresh virtual nRF52 from the run's
/// seed, its bootloader served on a pseudo-terminal as `dfu sim --serve serial:PATH --protocol
/// nordic` serves it (SLIP, in DFU mode from the start, 1,000,000 baud, on the campaign's model
/// clock), or (`bluez-nordic-kill-*`) its application behind the BlueZ stand-in, entered into its
/// bootloader by buttonless DFU (`KilledDevice+Nordic`); the `dfu` binary flashing the package (`dfu
/// flash PKG --key KEY --device serial:PATH,baud=…|ADDRESS --json`, a journal directory of the
/// run's own) and killed with SIGKILL once the bootloader has received the init packet and a share
/// of the firmware drawn from the seed;
/// then the update finished by the same command or by `dfu resume --json`; then the device's state.
/// With `also` = `finisherKilled` the first `dfu resume` is killed too, at a share of the firmware
/// left (`FlashDeathPlan`), and a second one finishes; with `powerCutAtKill` the device's power is
/// cut as `dfu` dies (a serial-only board then put back in DFU mode).
///
/// Over the serial line only shares of the transfer: once the last Execute is in, this bootloader
/// starts the new application, which reads nothing on the line, so no later run could reach it to
/// confirm what a kill in the activation would have left (nothing: Nordic has no test boot). Over
/// BLE the application can be reached, so the kill may also come as the last Execute goes out.
/// `bluez-nordic-elsewhere-*`: the bootloader at an address of its own (`bl_address=random`), which
/// the next `dfu` can find only by the name the killed one gave it (kept in the journal).
struct NordicKillRun {
    let scenario: Scenario
    let finish: ProcessDeath.Finish
    var also: ProcessDeath.Also = .nothing
    /// Where the children reach the device (`KilledDevice`).
    var over: ProcessDeath.Over = .wire
    let run: Int
    let seed: UInt64
    let inputs: NordicInputs
    let files: ProcessInputs
    let timeScale: Double
    let hangGuard: Duration

    /// A serial-only board left running its application (the last Execute went in, or its power
    /// was cut) is put back in DFU mode before the command that finishes, as its operator must.
    private var dfuModeByHand: Bool {
        over != .bluez && (also == .killedAtLastExecute || also == .powerCutAtKill)
    }

    func perform() async throws(FaultsError) -> RunRecord {
        // Over BLE the bootloader may advertise at an address of its own, found by the name dfu gave it.
        let elsewhere = over == .bluez && scenario.nordic?.bootloaderElsewhere == true
        let text = "sim:protocol=nordic,seed=\(seed)" + (elsewhere ? ",bl_address=random" : "") + ",timescale=\(timeScale)"
        let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
        let plan = FlashDeathPlan(also, seed: seed, transferOnly: over != .bluez, nordicOverBLE: over == .bluez)
        let schedule = KillSchedule(plan.kills, totalBytes: inputs.initPacketBytes + inputs.firmwareBytes,
                                    uncounted: inputs.initPacketBytes)
        // Every Packet byte counted, the next Execute is the last (over BLE, where its writes are seen).
        let lastExecute = UploadCounter.ExecuteTripwire(bytes: inputs.initPacketBytes + inputs.firmwareBytes) { schedule.lastExecute() }
        let counter = UploadCounter(executeTripwire: lastExecute, onAdd: { schedule.sent($0) })
        let home = try StateHome.make()
        let served: KilledDevice<NordicVirtualDevice>
        do throws(FaultsError) {
            served = try await KilledDevice.serve(setup, over: over, counter: counter, directory: home.path, scenario: scenario.name,
                                                  execute: { if counter.total >= lastExecute.bytes { schedule.lastExecute() } })
        } catch {
            home.remove()
            throw error
        }
        let previousVersion = await served.snapshot().applicationVersion
        let flash = ["flash", files.packagePath, "--key", files.nordicKeyPath, "--device", served.device, "--json"]

        let modelStart = setup.clock.now
        let wallStart = ContinuousClock.now
        let (attempts, failure) = await ChildRunner(files: files, home: home, hangGuard: hangGuard, environment: served.environment)
            .killThenFinish(flash, schedule: schedule, finish: finish, expectation: scenario.expectation,
                            afterKill: {
                                if also == .powerCutAtKill { await served.powerCut() }
                                if dfuModeByHand { await served.toDFUMode() }
                            })
        let modelEnd = setup.clock.now
        let wallEnd = ContinuousClock.now
        let final = await NordicBootWait.settled(clock: setup.clock, served.snapshot)
        await served.stop()
        home.remove()
        if let failure { throw failure }

        let device = DeviceVerdict(nordic: final, newVersion: inputs.version, previousVersion: previousVersion)
        let facts = DeviceFacts(nordic: final, newVersion: inputs.version, previousVersion: previousVersion)
        let outcome = ProcessDeathVerdict.judge(attempts, kills: plan.kills.count, expectation: scenario.expectation, device: device)
        let violations = InvariantCheck.violations(attempts, device: facts, documented: scenario.expectation.documentedFailures)
        // What the run did to the device beside the kill, named as the serial fault rows name it.
        var faults = ProcessDeathVerdict.kills(plan.kills, attempts)
        if also == .powerCutAtKill { faults += "+power-cut" }
        if dfuModeByHand { faults += "+dfu-mode-by-hand" }
        return RunRecord(run: run, seed: seed, device: text, faults: faults,
                         attempts: attempts, uploadedBytes: counter.total, imageBytes: inputs.initPacketBytes + inputs.firmwareBytes,
                         modelSeconds: modelStart.duration(to: modelEnd).seconds,
                         wallSeconds: (wallEnd - wallStart).seconds, outcome: outcome, violations: violations)
    }
}
