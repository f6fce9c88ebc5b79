import ArgumentParsing
import ReportSupport
import Transport

/// Parses the command line, runs every selected scenario `runs` times, and prints the report.
/// Progress goes to stderr so stdout holds only the table or the JSON document.
enum FaultsMain {
    static func run(_ arguments: [String]) async -> Int32 {
        do {
            try await runChecked(arguments)
            return 0
        } catch {
            StandardError.print("dfu-faults: error: \(error)")
            return error.exitCode
        }
    }

    private static func runChecked(_ arguments: [String]) async throws(FaultsError) {
        let options: FaultsOptions
        switch try parse(arguments) {
        case .help(let text):
            print(text)
            return
        case .run(let parsed):
            options = parsed
        }
        if options.list {
            for scenario in Scenario.catalogue {
                print("\(scenario.name)\n    \(scenario.summary)\n    fault: \(scenario.faultText); expected: \(scenario.expectation.text)")
            }
            return
        }
        let scenarios = try options.selected(from: Scenario.catalogue)
        let inputs = try FlashInputs.load(options)
        let nordicInputs = scenarios.contains { $0.nordic != nil } ? try NordicInputs.load(options) : nil
        let processInputs = scenarios.contains { $0.processDeath != nil } ? try ProcessInputs.load(options) : nil
        let settings = CampaignSettings(image: inputs.imageName, imageBytes: inputs.image.count,
                                        imageVersion: "\(inputs.version)", runsPerScenario: options.runs,
                                        seed: options.seed, timeScale: options.timeScale,
                                        hangGuardSeconds: options.hangGuardSeconds, machine: MachineInfo.current())
        let hangGuard = Duration.milliseconds(Int64((options.hangGuardSeconds * 1000).rounded()))

        let start = ContinuousClock.now
        var summaries: [ScenarioSummary] = []
        for scenario in scenarios {
            var records: [RunRecord] = []
            for run in 1 ... scenario.runs(given: options.runs) {
                // Same seeds in every scenario: run r of each draws from seed + r − 1.
                let run = ScenarioRun(scenario: scenario, run: run, seed: options.seed &+ UInt64(run - 1),
                                      inputs: inputs, nordicInputs: nordicInputs, processInputs: processInputs,
                                      timeScale: options.timeScale, hangGuard: hangGuard)
                let record = try await run.perform()
                if record.outcome.unexpectedReason != nil || !record.violations.isEmpty {
                    StandardError.print("dfu-faults: UNEXPECTED: " + TableReport.describe(record, in: scenario))
                }
                records.append(record)
            }
            let summary = ScenarioSummary(scenario: scenario, records: records)
            StandardError.print(TableReport.progress(summary))
            summaries.append(summary)
        }
        let wall = (ContinuousClock.now - start).seconds

        if options.json {
            do {
                print(try JSONReport(settings: settings, wallSeconds: wall, summaries: summaries).rendered())
            } catch {
                throw .setup("cannot encode the JSON report: \(error)")
            }
        } else {
            print(TableReport.render(summaries, settings: settings, nordic: nordicInputs, wallSeconds: wall))
        }
        let totals = CampaignTotals(summaries)
        // The JSON document holds stdout; the last line then goes to stderr, still the last there.
        if options.json { StandardError.print(totals.lastLine) }
        if totals.violations > 0 { throw .invariantViolations(violations: totals.violations, unexpected: totals.unexpected) }
        if totals.unexpected > 0 { throw .unexpectedOutcomes(totals.unexpected) }
    }

    private static func parse(_ arguments: [String]) throws(FaultsError) -> CommandRequest<FaultsOptions> {
        do {
            return try FaultsOptions.request(arguments, commandPath: FaultsOptions.name)
        } catch let error as UsageError {
            throw .usage(error.message)
        } catch {
            throw .setup("dfu-faults declares its options wrongly: \(error)")
        }
    }
}
