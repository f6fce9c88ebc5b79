import BlueZTransport
import DFUCore
import ExitCodes
import Foundation
import Transport

/// One update from its request to its result: the engine, its events, its journal kept
/// (`JournalRecorder`, so `dfu resume` can finish it if this run does not). `dfu flash` builds the
/// request from its options, `dfu batch` from a plan row, `dfu resume` from a journal. `run`
/// renders it for `dfu flash` and `dfu resume` (terminal or `--json`, SIGINT/SIGTERM turned into a
/// resumable stop); `execute` hands the events to a caller that shows them itself (`dfu batch`).
struct FlashRun {
    var request: FlashRequest
    /// How the run is shown (the caller's own flags).
    var output = FlashOutput()
    /// Answers a device that asks to pair; from the command line or a plan cell, never journaled.
    var passkey: Passkey?
    /// Where the journal goes; nil: none is kept.
    var journal: JournalStore?
    /// The command the JSON lines name (`flash`, `resume`).
    var commandName = FlashCommand.name
    /// The event of the JSON line that ends the run: `result`, or `update-result` for one of the
    /// runs of `dfu resume`, whose own summary is the `result`.
    var resultEvent = "result"
    /// Connect through this gate (one connection set up at a time per adapter, `dfu batch`).
    var connectGate: BlueZConnectGate?

    /// How `execute` ended.
    struct Outcome {
        var result: UpdateResult
        /// The task running `execute` was cancelled (SIGINT): the device stays resumable.
        var cancelled: Bool
        /// A journal says what this update is (`dfu resume` knows of it); false when the run ended
        /// before the device took any of it, or no journal was kept.
        var journaled = false
        var exitStatus: ExitStatus { cancelled ? .interrupted : result.exitStatus }
    }

    /// Runs the update in the calling task: `observe` gets every engine event (and `.warning`s about
    /// the journal) in order. Cancelling the task stops the update where it is.
    func execute(log: @escaping @Sendable (String) -> Void = { _ in },
                 observe: (UpdateEvent) -> Void) async -> Outcome {
        let engine: UpdateEngine
        let deviceTarget: DeviceTarget
        let bytes: [UInt8]
        // What the journal knows of this device from an earlier run: one that was cut off in
        // Nordic DFU mode named the bootloader, which may wait under that name alone.
        let previous = journal.map { FlashJournal.previous(for: request, in: $0) }
        do throws(DFUError) {
            bytes = try FileReader.readAll(path: request.imagePath)
            (engine, deviceTarget) = try await request.makeEngine(
                image: bytes, passkey: passkey, fullAddresses: output.fullAddresses, connectGate: connectGate,
                earlierBootloaderName: previous?.earlierBootloaderName,
                earlierVersionBefore: previous?.versionBefore(ofFile: UpdateFileFacts(of: bytes)?.sha256), log: log)
        } catch {
            return Outcome(result: .failure(error), cancelled: Task.isCancelled)
        }
        var recorder: JournalRecorder?
        // A dry run is no update: nothing to resume.
        if let journal, let previous, !request.dryRun {
            let started = FlashJournal.recorder(for: request, image: bytes, store: journal, previous: previous)
            recorder = started.recorder
            for warning in started.warnings { observe(.warning(warning)) }
            if let failure = recorder?.writeAhead(at: .now, unixTime: FlashJournal.unixTime()) {
                observe(.warning(FlashJournal.warning(failure)))
            }
        }
        if let warning = request.modeWarning { observe(.warning(warning)) }
        let run = engine.start()
        await withTaskCancellationHandler {
            for await event in run.events {
                if let failure = recorder?.record(event, at: .now, unixTime: FlashJournal.unixTime()) {
                    observe(.warning(FlashJournal.warning(failure)))
                }
                observe(event)
            }
        } onCancel: {
            run.result.cancel()
        }
        let result = await run.result.value
        await deviceTarget.close()
        let cancelled = Task.isCancelled
        let outcome = Outcome(result: result, cancelled: cancelled, journaled: recorder?.isKept ?? false)
        // Interrupted: the device keeps what it acknowledged, and the journal says which update
        // this was, so `dfu resume` (or the same command again) carries on.
        _ = recorder?.finish(cancelled ? .interrupted : FlashJournal.outcome(result), at: .now,
                             unixTime: FlashJournal.unixTime())
        return outcome
    }

    /// `dfu flash` and `dfu resume`: the update rendered on the console, its exit status returned.
    func run(_ console: Console) async -> ExitStatus {
        await report(console).status
    }

    /// As `run`, with how the update ended (nil: interrupted by a signal).
    func report(_ console: Console) async -> (status: ExitStatus, result: UpdateResult?) {
        // The BlueZ connector's own lines (retries, rediscovery, pairing) are not engine events:
        // with --verbose they go to stderr, also with --json (whose stdout stays JSON lines only).
        let logConsole = console.verbose(output.verbose)
        let work = Task { () -> (Outcome, ExitStatus) in
            // On a terminal a ticker counts the reboot's seconds between events.
            let renderer = TickingRenderer(makeRenderer(console),
                                           ticks: !output.json && Console.isTerminal(.standardOutput))
            // A cancelled run's events stop at once (the stream ends), so nothing is drawn after ^C.
            let outcome = await execute(log: { logConsole.log($0) }) { renderer.render($0, at: .now) }
            if outcome.cancelled {
                renderer.stop()
                return (outcome, .interrupted)
            }
            return (outcome, renderer.finish(outcome.result, at: .now))
        }
        let interruption = GracefulInterruption { work.cancel() }
        let (outcome, status) = await work.value
        interruption.finish()
        if outcome.cancelled {
            let tookNothing = journal != nil && !request.dryRun && !outcome.journaled
            console.error(GracefulInterruption.message
                          + FlashJournal.resumeHint(for: request, fullAddresses: output.fullAddresses,
                                                    journaled: outcome.journaled, tookNothing: tookNothing))
            return (status, nil)
        }
        return (status, outcome.result)
    }

    /// Reports a failure found before the update could start, as the run would have: a result
    /// line with `--json`.
    func refuse(_ error: DFUError, _ console: Console) -> ExitStatus {
        var renderer = makeRenderer(console)
        return renderer.finish(.failure(error), at: .now)
    }

    private func makeRenderer(_ console: Console) -> any EventRenderer {
        if output.json {
            return NDJSONRenderer(sink: console, configuration: .init(command: commandName, verbose: output.verbose,
                                                                      resultEvent: resultEvent))
        }
        return TerminalRenderer(sink: console, configuration: .init(
            imageName: request.imageName, minimumBattery: request.minimumBattery,
            isTerminal: Console.isTerminal(.standardOutput), verbose: output.verbose,
            requireNewer: request.requireNewer, keyGiven: request.keyPath != nil,
            modelTimeScale: (try? request.deviceSpec)?.modelTimeScale))
    }
}
