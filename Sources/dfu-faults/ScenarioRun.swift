import DFUCore
import DeviceSim
import ExitCodes
import Transport

/// One run of a scenario: a fresh virtual device with the scenario's faults drawn from `seed`, one
/// whole test-confirm update as `dfu flash --device sim:…` runs it (default deadlines, on the model
/// clock), a rerun when the scenario expects the first to fail, then the device's own state.
struct ScenarioRun {
    let scenario: Scenario
    let run: Int
    let seed: UInt64
    let inputs: FlashInputs
    /// The package and keys of the Nordic scenarios; nil when none was selected.
    let nordicInputs: NordicInputs?
    /// The `dfu` binary and the files by path, for the process-death scenarios; nil when none was selected.
    var processInputs: ProcessInputs? = nil
    let timeScale: Double
    let hangGuard: Duration

    func perform() async throws(FaultsError) -> RunRecord {
        if let death = scenario.processDeath {
            guard let processInputs else { throw .setup("scenario \(scenario.name): no dfu binary located") }
            return try await ProcessDeathRun(scenario: scenario, death: death, run: run, seed: seed, inputs: inputs,
                                             nordicInputs: nordicInputs, files: processInputs, timeScale: timeScale,
                                             hangGuard: hangGuard).perform()
        }
        if let faults = scenario.nordic {
            guard let nordicInputs else { throw .setup("scenario \(scenario.name): no Nordic package loaded") }
            if scenario.link == .serial {
                return try await NordicSerialScenarioRun(scenario: scenario, faults: faults, run: run, seed: seed, inputs: nordicInputs,
                                                         timeScale: timeScale, hangGuard: hangGuard).perform()
            }
            return try await NordicScenarioRun(scenario: scenario, faults: faults, run: run, seed: seed, inputs: nordicInputs,
                                               timeScale: timeScale, hangGuard: hangGuard).perform()
        }
        let text = scenario.simOptions(seed: seed, timeScale: timeScale, otherKeyPath: inputs.otherKeyPath)
        let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
        let (options, clock) = (setup.options, setup.clock)
        let served = try await ServedDevice.serve(options, on: scenario.link, memory: setup.connector, clock: clock,
                                                  scenario: scenario.name, movesAfterReboot: scenario.movesAfterReboot,
                                                  baud: scenario.serialBaud)
        let before = await served.snapshot()
        let flashRate = before.server.bootloader.secondary.timing.writeBytesPerSecond
        let counter = UploadCounter()
        let target = UpdateEngine.Target(connector: CountingConnector(inner: served.connector, counter: counter),
                                         peer: served.peer,
                                         flashRate: flashRate.isFinite ? flashRate : nil)
        // As `dfu flash` with a time scale: deadlines and rates in the model's time.
        var updateOptions = UpdateOptions()
        if let rebootTimeout = scenario.rebootTimeout { updateOptions.deadlines.reboot = rebootTimeout }
        let engine = UpdateEngine(image: inputs.image, imageName: inputs.imageName, key: inputs.key, options: updateOptions,
                                  target: target, hostPower: .mains, clock: EngineClock(clock))

        let modelStart = clock.now
        let wallStart = ContinuousClock.now
        var attempts = [await attempt(engine, index: 1)]
        let afterFirst = await served.snapshot()
        let bootsAfterFirst = afterFirst.boots.count
        if let first = attempts.first, !first.hung, scenario.expectation.rerunsAfter(first.exitStatus) {
            // A user charges a device whose battery fell before running the command again.
            if afterFirst.batteryLevel < before.batteryLevel { await served.setBattery(before.batteryLevel) }
            attempts.append(await attempt(engine, index: 2))
        }
        let modelEnd = clock.now
        let wallEnd = ContinuousClock.now

        let final = await served.snapshot()
        await served.stop()
        let previousHash = before.runningImage?.hash
        let device = DeviceVerdict(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
        let facts = DeviceFacts(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
        let heldBack = DeviceVerdict(afterFirst, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
        let outcome = scenario.expectation.judge(attempts, bootsAfterFirst: bootsAfterFirst, device: device,
                                                 afterFirst: heldBack)
        let violations = InvariantCheck.violations(attempts, device: facts, documented: scenario.expectation.documentedFailures)
        var drawn = options.faults.map(\.description)
        if scenario.movesAfterReboot { drawn.append("new-address@reset") }
        let faults = drawn.joined(separator: "+")
        return RunRecord(run: run, seed: seed, device: text, faults: faults.isEmpty ? "none" : faults,
                         attempts: attempts, uploadedBytes: counter.total, imageBytes: inputs.image.count,
                         modelSeconds: modelStart.duration(to: modelEnd).seconds,
                         wallSeconds: (wallEnd - wallStart).seconds, outcome: outcome, violations: violations)
    }

    private func attempt(_ engine: UpdateEngine, index: Int) async -> AttemptRecord {
        await UpdateAttempt.run(engine, index: index, hangGuard: hangGuard)
    }
}
