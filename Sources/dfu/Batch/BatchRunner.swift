import DFUCore
import ExitCodes
import Transport

/// Runs a batch's jobs, several at once (`BatchScheduler` says which and where), each as `dfu
/// flash` would run it (`FlashRun.execute`, journal included), and reports each as it ends.
/// Cancelling the calling task stops every run where it is (resumable) and starts no more.
struct BatchRunner: Sendable {
    var jobs: [BatchJob]
    /// The batch's own options, as `dfu flash` words, for every row.
    var sharedArguments: [String]
    var parallel: Int
    var perAdapter: Int
    var adapters: [String]
    var journal: JournalStore?
    let board: BatchBoard
    /// Each device's diagnostic lines (`--verbose`): the device's name and the line.
    var log: (@Sendable (String, String) -> Void)?

    /// Runs every job; `finished` gets each report as its run ends (in the order they end).
    func run(finished: (BatchDeviceReport) -> Void) async -> [BatchDeviceReport] {
        await run(arriving: BatchJobQueue(all: jobs), finished: finished)
    }

    /// Runs the jobs `source` holds, as they arrive (`dfu batch --discover`), until it finishes
    /// and every job started has ended.
    func run(arriving source: BatchJobQueue, finished: (BatchDeviceReport) -> Void) async -> [BatchDeviceReport] {
        enum Step: Sendable {
            case arrived(BatchJob?)
            case ended(adapter: String?, BatchDeviceReport)
        }
        var jobs: [BatchJob] = []
        var reports: [BatchDeviceReport] = []
        var scheduler = BatchScheduler(jobs: [], parallel: parallel, perAdapter: perAdapter, adapters: adapters)
        let gates = Dictionary(uniqueKeysWithValues: scheduler.adapters.map { ($0, BlueZConnectGate()) })
        await withTaskGroup(of: Step.self) { group in
            var sourceOpen = true
            group.addTask { .arrived(await source.next()) }
            while sourceOpen || !scheduler.isDone {
                while !Task.isCancelled, let (index, adapter) = scheduler.next() {
                    let job = jobs[index]
                    let gate = adapter.flatMap { gates[$0] }
                    group.addTask { .ended(adapter: adapter, await run(job, index: index, adapter: adapter, gate: gate)) }
                }
                if Task.isCancelled {
                    for index in scheduler.drain() {
                        let report = jobs[index].report(.interrupted, status: .interrupted, stage: "not-started",
                                                        error: "not started: the batch was interrupted")
                        reports.append(report)
                        finished(report)
                    }
                }
                guard let step = await group.next() else { break }
                switch step {
                case .arrived(let job?):
                    jobs.append(job)
                    scheduler.add(isBluetooth: job.row.isBluetooth)
                    group.addTask { .arrived(await source.next()) }
                case .arrived(nil):
                    sourceOpen = false
                case .ended(let adapter, let report):
                    scheduler.finished(adapter: adapter)
                    reports.append(report)
                    finished(report)
                }
            }
        }
        return reports.sorted { $0.line < $1.line }
    }

    private func run(_ job: BatchJob, index: Int, adapter: String?, gate: BlueZConnectGate?) async -> BatchDeviceReport {
        let command: FlashCommand
        do throws(UsageError) {
            command = try job.row.flashCommand(shared: sharedArguments, adapter: adapter.flatMap { $0.isEmpty ? nil : $0 })
        } catch {
            return job.report(.failed, status: .usage, stage: "plan", error: error.message)
        }
        board.start(index, name: job.name)
        let start = ContinuousClock.now
        let name = job.name
        let log = self.log
        let flash = FlashRun(command: command, journal: journal, commandName: BatchCommand.name, connectGate: gate)
        let outcome = await flash.execute(log: { line in log?(name, line) }) { event in
            board.fold(index, event)
            if let log, case .log(let line) = event { log(name, line) }
        }
        let progress = board.finish(index)
        let result: BatchDeviceReport.Result
        var error: String?
        switch outcome.result {
        case _ where outcome.cancelled:
            result = .interrupted
            error = "interrupted; 'dfu resume' or the same batch again carries on"
        case .success where !progress.stagesStarted.contains(.checkPreconditions) && !command.dryRun:
            // Straight from the device state to the version check: it already ran this image.
            result = .skipped
            error = "already runs this image (\(progress.versionAfter ?? progress.versionBefore ?? "?"))"
        case .success:
            result = command.dryRun ? .checked : .ok
        case .failure(let failure):
            result = .failed
            error = failure.description
        }
        return BatchDeviceReport(
            line: job.row.line, device: job.name, image: job.imageName, protocolName: job.protocolName, result: result,
            exitStatus: outcome.exitStatus, stage: result == .ok || result == .skipped ? "done" : result == .checked ? "dry-run" : (progress.stage?.rawValue ?? UpdateStage.verifyImage.rawValue),
            versionBefore: progress.versionBefore, versionAfter: progress.versionAfter,
            duration: ContinuousClock.now - start, bytes: progress.bytes, error: error)
    }
}
