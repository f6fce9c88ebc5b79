import ArgumentParsing
import Foundation
import ReportSupport

/// Parses the command line, runs every selected profile `runs` times, and prints the report.
/// Progress goes to stderr so stdout holds only the table or the JSON document.
enum BenchMain {
    static func run(_ arguments: [String]) async -> Int32 {
        do {
            try await runChecked(arguments)
            return 0
        } catch {
            StandardError.print("dfu-bench: error: \(error)")
            return error.exitCode
        }
    }

    private static func runChecked(_ arguments: [String]) async throws(BenchError) {
        let options: BenchOptions
        switch try parse(arguments) {
        case .help(let text):
            print(text)
            return
        case .run(let parsed):
            options = parsed
        }
        let catalogue: [BenchProfile]
        let nordicCatalogue: [NordicBenchProfile]
        let fleetProfile: FleetProfile
        do {
            catalogue = try BenchProfile.catalogue()
            nordicCatalogue = try NordicBenchProfile.catalogue(catalogue)
            fleetProfile = try FleetProfile.standard()
        } catch {
            throw .setup("a built-in link profile is invalid: \(error)")
        }
        if options.list {
            for profile in catalogue { print("\(profile.name)\n    \(profile.linkText); \(profile.summary)") }
            for profile in nordicCatalogue { print("\(profile.name)\n    \(profile.linkText); \(profile.summary)") }
            print("\(fleetProfile.name) (--fleet)\n    \(fleetProfile.bench.linkText); \(fleetProfile.bench.summary)")
            print("batch (--batch)\n    dfu batch over \(options.batchDevices) unpaced sim devices, --parallel \(options.batchParallel)")
            print("serial (--serial)\n    SMP over pseudo-terminals paced at " + options.serialRuns.map { "\($0.baud)" }.joined(separator: " and ")
                + " baud; \(BenchOptions.serialBatchDevices) of them at \(BenchOptions.serialBatchBaud) through dfu batch; smpmgr beside dfu")
            return
        }
        // A --smpmgr that is no program is a mistake to say before minutes of runs, not after.
        if options.runsSerial, let given = options.smpmgrPath, !FileManager.default.isExecutableFile(atPath: given) {
            throw .setup("--smpmgr \(given) is no executable file (without --smpmgr the bench looks at "
                + "\(SmpmgrLocation.searched) and says so when it finds none)")
        }
        let (profiles, nordicProfiles) = try options.selected(from: catalogue, nordic: nordicCatalogue)
        let package = nordicProfiles.isEmpty ? nil : try NordicPackageFile.load(options.packagePath)
        let image = try ImageFile.load(options.imagePath)
        let previous = try ImageFile.load(options.previousImagePath)
        let machine = MachineInfo.current()

        var summaries: [ProfileSummary] = []
        for profile in profiles {
            var runs: [RunMeasurement] = []
            var updates: [WholeUpdateMeasurement] = []
            for run in 1 ... options.runs {
                do {
                    let measurement = try await TransferRun(profile: profile, image: image, previous: previous).measure()
                    StandardError.print(TableReport.progress(profile, run: run, of: options.runs, measurement))
                    runs.append(measurement)
                    guard options.wholeUpdate else { continue }
                    let update = try await WholeUpdateRun(profile: profile, image: image, previous: previous).measure()
                    StandardError.print(TableReport.progress(profile, run: run, of: options.runs, update))
                    updates.append(update)
                } catch {
                    throw .runFailed(profile: profile.name, run: run, reason: "\(error)")
                }
            }
            summaries.append(ProfileSummary(profile: profile, runs: runs, wholeUpdates: updates))
        }
        var nordicSummaries: [NordicProfileSummary] = []
        if let package {
            for profile in nordicProfiles {
                var runs: [NordicRunMeasurement] = []
                for run in 1 ... options.runs {
                    do {
                        let measurement = try await NordicTransferRun(profile: profile, package: package).measure()
                        StandardError.print(NordicTableReport.progress(profile, run: run, of: options.runs, measurement))
                        runs.append(measurement)
                    } catch {
                        throw .runFailed(profile: profile.name, run: run, reason: "\(error)")
                    }
                }
                nordicSummaries.append(NordicProfileSummary(profile: profile, runs: runs))
            }
        }
        var fleet: FleetMeasurement?
        if options.runsFleet {
            do {
                fleet = try await FleetRun(fleet: fleetProfile, image: image, previous: previous).measure()
            } catch {
                throw .runFailed(profile: fleetProfile.name, run: 1, reason: "\(error)")
            }
            if let fleet { StandardError.print(FleetTableReport.progress(fleet)) }
        }
        var batch: BatchMeasurement?
        if options.runsBatch {
            let measured = try BatchRun(devices: options.batchDevices, parallel: options.batchParallel,
                                        imagePath: BatchRun.defaultImage, keyPath: BatchRun.defaultKey,
                                        dfuPath: options.dfuPath).measure()
            StandardError.print(FleetTableReport.progress(measured))
            batch = measured
        }

        var serialSummaries: [SerialSummary] = []
        var serialTable: String?
        var serialBatch: SerialBatchMeasurement?
        var smpmgr: SmpmgrComparison?
        if options.runsSerial {
            var serialTables: [String] = []
            for (baud, path) in options.serialRuns {
                let serialImage = try ImageFile.load(path)
                var runs: [SerialMeasurement] = []
                for run in 1 ... options.runs {
                    do {
                        let measurement = try await SerialRun(baud: baud, image: serialImage).measure()
                        StandardError.print(SerialTableReport.progress(measurement, run: run, of: options.runs))
                        runs.append(measurement)
                    } catch {
                        throw .runFailed(profile: "serial-\(baud)", run: run, reason: "\(error)")
                    }
                }
                let summary = SerialSummary(baud: baud, image: serialImage.name, runs: runs)
                serialSummaries.append(summary)
                serialTables.append(SerialTableReport.row(summary))
            }
            let batchImage = try ImageFile.load(options.serialImagePath)
            let measured: SerialBatchMeasurement
            do {
                measured = try await SerialBatchRun(devices: BenchOptions.serialBatchDevices, baud: BenchOptions.serialBatchBaud,
                                                    image: batchImage, keyPath: BatchRun.defaultKey,
                                                    dfuPath: options.dfuPath).measure()
            } catch {
                throw .runFailed(profile: "serial-batch", run: 1, reason: "\(error)")
            }
            StandardError.print(SerialTableReport.progress(measured))
            serialBatch = measured
            serialTables.append(SerialTableReport.render(measured))
            let comparison = try await smpmgrComparison(options)
            smpmgr = comparison
            serialTables.append(SerialTableReport.render(comparison, dfu: serialSummaries))
            serialTable = ([SerialTableReport.heading] + serialTables).joined(separator: "\n")
        }

        if options.json {
            let report = JSONReport(image: image.name, imageBytes: image.bytes.count, runsPerProfile: options.runs,
                                    machine: machine, profiles: summaries,
                                    nordicPackage: package?.name, nordicProfiles: package == nil ? nil : nordicSummaries,
                                    fleet: fleet, batch: batch, serial: serialSummaries.isEmpty ? nil : serialSummaries,
                                    serialBatch: serialBatch, smpmgr: smpmgr)
            do {
                print(try report.rendered())
            } catch {
                throw .setup("cannot encode the JSON report: \(error)")
            }
        } else {
            // Each table only when it has profiles, so the SMP table reads as before.
            var tables: [String] = []
            if !summaries.isEmpty { tables.append(TableReport.render(summaries, image: image, runs: options.runs, machine: machine)) }
            if let package {
                tables.append(NordicTableReport.render(nordicSummaries, package: package, runs: options.runs))
            }
            if let fleet { tables.append(FleetTableReport.render(fleet)) }
            if let batch { tables.append(FleetTableReport.render(batch)) }
            if let serialTable { tables.append(serialTable) }
            print(tables.joined(separator: "\n\n"))
        }
        var misses: [String] = []
        if let fleet, !fleet.metTarget {
            misses.append("the fleet's aggregate goodput is \(ColumnText.fixed(fleet.ratio * 100, 1)) % of the adapter's capacity, "
                + "below the \(ColumnText.fixed(fleet.target * 100, 0)) % target")
        }
        if let batch, !batch.passed {
            misses.append("the batch lost \(batch.lostReports) of \(batch.devices) reports, \(batch.failures) devices failed, "
                + "dfu exited \(batch.exitStatus)")
        }
        if let serialBatch, !serialBatch.passed {
            misses.append("the serial batch has \(serialBatch.succeeded) of \(serialBatch.devices) devices ok, dfu exited "
                + "\(serialBatch.exitStatus)" + (serialBatch.problem.map { ": \($0)" } ?? ""))
        }
        if !misses.isEmpty { throw .targetMissed(misses) }
    }

    /// smpmgr at each of the serial part's baud rates with the same image as dfu's run there, once
    /// each; not installed is a row, not a failure, and so is an smpmgr run that fails.
    private static func smpmgrComparison(_ options: BenchOptions) async throws(BenchError) -> SmpmgrComparison {
        guard let executable = SmpmgrLocation.find(given: options.smpmgrPath) else { return .notInstalled }
        var runs: [SmpmgrMeasurement] = []
        for (baud, path) in options.serialRuns {
            let image = try ImageFile.load(path)
            do {
                let run = try await SmpmgrRun(executable: executable, baud: baud, image: image).measure()
                StandardError.print(SerialTableReport.progress(run))
                runs.append(run)
            } catch {
                throw .runFailed(profile: "smpmgr-\(baud)", run: 1, reason: "\(error)")
            }
        }
        return SmpmgrComparison(installed: true, executable: executable, version: SmpmgrRun.version(of: executable), runs: runs)
    }

    private static func parse(_ arguments: [String]) throws(BenchError) -> CommandRequest<BenchOptions> {
        do {
            return try BenchOptions.request(arguments, commandPath: BenchOptions.name)
        } catch let error as UsageError {
            throw .usage(error.message)
        } catch {
            throw .setup("dfu-bench declares its options wrongly: \(error)")
        }
    }
}
