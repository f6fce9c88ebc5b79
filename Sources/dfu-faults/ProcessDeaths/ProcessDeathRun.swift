/// One run of a process-death scenario, handed to the run of its kind: a killed `dfu flash` of
/// the SMP image over UDP or BlueZ or of the Nordic package over a serial line, or a killed `dfu
/// batch` of either.
struct ProcessDeathRun {
    let scenario: Scenario
    let death: ProcessDeath
    let run: Int
    let seed: UInt64
    let inputs: FlashInputs
    let nordicInputs: NordicInputs?
    let files: ProcessInputs
    let timeScale: Double
    let hangGuard: Duration

    func perform() async throws(FaultsError) -> RunRecord {
        switch death {
        case .flash(let finish, let also, let over):
            if scenario.nordic != nil {
                return try await NordicKillRun(scenario: scenario, finish: finish, also: also, over: over, run: run, seed: seed,
                                               inputs: try nordic(), files: files, timeScale: timeScale, hangGuard: hangGuard).perform()
            }
            return try await FlashKillRun(scenario: scenario, finish: finish, also: also, over: over, run: run, seed: seed,
                                          inputs: inputs, files: files, timeScale: timeScale, hangGuard: hangGuard).perform()
        case .batch(let devices, let parallel, let killedAgain):
            if scenario.nordic != nil {
                return try await NordicBatchKillRun(scenario: scenario, devices: devices, parallel: parallel, killedAgain: killedAgain,
                                                    run: run, seed: seed, inputs: try nordic(), files: files, timeScale: timeScale,
                                                    hangGuard: hangGuard).perform()
            }
            return try await BatchKillRun(scenario: scenario, devices: devices, parallel: parallel, killedAgain: killedAgain, run: run,
                                          seed: seed, inputs: inputs, files: files, timeScale: timeScale, hangGuard: hangGuard).perform()
        }
    }

    private func nordic() throws(FaultsError) -> NordicInputs {
        guard let nordicInputs else { throw .setup("scenario \(scenario.name): no Nordic package loaded") }
        return nordicInputs
    }
}
