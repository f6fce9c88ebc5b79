import BlueZTransport
import DFUCore
import ExitCodes
import Transport

/// Runs a batch's jobs, several at once (`BatchScheduler` says which and where), each as `dfu
/// flash` would run it (`FlashRun.execute`, journal included), and reports each as it ends.
/// Cancelling the calling task stops every run where it is (resumable) and starts no more.
struct BatchRunner: Sendable {
    var jobs: [BatchJob]
    /// The batch's own options, for every row's request.
    var defaults: BatchDefaults
    /// `--full-addresses`: how each run names its device.
    var fullAddresses = false
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
        let adapter = adapter.flatMap { $0.isEmpty ? nil : $0 }
        let request: FlashRequest
        let passkey: Passkey?
        do throws(BatchRowProblem) {
            (request, passkey) = try job.row.request(defaults: defaults, adapter: adapter)
        } catch {
            return job.report(.failed, status: .usage, stage: "plan", error: error.description)
        }
        let start = ContinuousClock.now
        if let earlier = job.earlier, !request.dryRun {
            if let decided = await ask(job, request: request, passkey: passkey, earlier: earlier, index: index, gate: gate,
                                       start: start) {
                return decided
            }
        }
        let (outcome, progress) = await execute(request, passkey: passkey, job: job, index: index, gate: gate)
        let result: BatchDeviceReport.Result
        var error: String?
        switch outcome.result {
        case _ where outcome.cancelled:
            result = .interrupted
            error = "interrupted; 'dfu resume' or the same batch again carries on"
        case .success where !progress.stagesStarted.contains(.checkPreconditions) && !request.dryRun:
            // Straight from the device state to the version check: it already ran this image.
            result = .skipped
            error = "already runs this image (\(progress.versionAfter ?? progress.versionBefore ?? "?")), read from the device"
        case .success:
            result = request.dryRun ? .checked : .ok
        case .failure(let failure):
            result = .failed
            error = failure.description
        }
        let stage = switch result {
        case .ok, .skipped: "done"
        case .checked: "dry-run"
        case .failed, .notChecked, .interrupted: progress.stage?.rawValue ?? UpdateStage.verifyImage.rawValue
        }
        return BatchDeviceReport(
            line: job.row.line, device: job.name, fullDevice: job.fullName, image: job.imageName, protocolName: job.protocolName?.rawValue,
            result: result, exitStatus: outcome.exitStatus, stage: stage,
            versionBefore: progress.versionBefore, versionAfter: progress.versionAfter,
            duration: ContinuousClock.now - start, bytes: progress.bytes, error: error, extras: job.row.extras)
    }

    /// A device an earlier run finished: asked first (`BatchDoneCheck`). Its report when that
    /// decides it (it runs the image, it could not be asked, the batch was stopped); nil when it
    /// is to be flashed.
    private func ask(_ job: BatchJob, request: FlashRequest, passkey: Passkey?, earlier: BatchJob.EarlierRun, index: Int,
                     gate: BlueZConnectGate?, start: ContinuousClock.Instant) async -> BatchDeviceReport? {
        var probe = request
        probe.dryRun = true
        let (outcome, progress) = await execute(probe, passkey: passkey, job: job, index: index, gate: gate)
        if outcome.cancelled {
            return job.report(.interrupted, status: .interrupted, stage: progress.stage?.rawValue ?? "not-started",
                              error: "interrupted while asking the device whether it still runs the image",
                              versionBefore: progress.versionBefore, duration: ContinuousClock.now - start)
        }
        var failure: DFUError?
        if case .failure(let error) = outcome.result { failure = error }
        switch BatchDoneCheck.verdict(of: progress, failure: failure?.exitStatus, protocolName: job.protocolName, earlier: earlier) {
        case .runsIt(let why):
            return job.report(.skipped, status: .success, stage: "done", error: why, versionBefore: progress.versionBefore,
                              versionAfter: progress.versionBefore, duration: ContinuousClock.now - start)
        case .notChecked:
            return job.report(.notChecked, status: outcome.exitStatus,
                              stage: progress.stage?.rawValue ?? UpdateStage.connect.rawValue,
                              error: BatchDoneCheck.notCheckedReason(earlier, failure: failure?.description ?? "no answer"),
                              duration: ContinuousClock.now - start)
        case .flash:
            return nil
        }
    }

    /// One run of `request` for the job, drawn on the board while it lasts.
    private func execute(_ request: FlashRequest, passkey: Passkey?, job: BatchJob, index: Int,
                         gate: BlueZConnectGate?) async -> (FlashRun.Outcome, BatchDeviceProgress) {
        board.start(index, name: job.name)
        let name = job.name
        let log = self.log
        let flash = FlashRun(request: request, output: FlashOutput(fullAddresses: fullAddresses), passkey: passkey,
                             journal: journal, commandName: BatchCommand.name, connectGate: gate)
        let outcome = await flash.execute(log: { line in log?(name, line) }) { event in
            board.fold(index, event)
            if let log, case .log(let line) = event { log(name, line) }
        }
        return (outcome, board.finish(index))
    }
}
