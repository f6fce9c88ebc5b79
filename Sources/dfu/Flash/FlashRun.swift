import DFUCore
import ExitCodes
import Foundation

/// One update from its parsed `dfu flash` command line to its exit status: the engine, its events
/// rendered (terminal or `--json`), its journal kept (`JournalRecorder`, so `dfu resume` can finish
/// it if this run does not), and SIGINT/SIGTERM turned into a resumable stop. `dfu flash` and
/// `dfu resume` run through here.
struct FlashRun {
    var command: FlashCommand
    /// Where the journal goes; nil: none is kept.
    var journal: JournalStore?
    /// The command the JSON lines name (`flash`, `resume`).
    var commandName = FlashCommand.name

    func run(_ console: Console) async -> ExitStatus {
        var renderer = makeRenderer(console)
        // From here every outcome is rendered (a JSON result line with --json) and returned as a
        // status: thrown again, the CLI would print it a second time.
        let engine: UpdateEngine
        let deviceTarget: DeviceTarget
        let bytes: [UInt8]
        do throws(DFUError) {
            bytes = try FileReader.readAll(path: command.image)
            (engine, deviceTarget) = try await command.makeEngine(image: bytes, console)
        } catch {
            return renderer.finish(.failure(error), at: .now)
        }
        var recorder: JournalRecorder?
        if let journal {
            let started = FlashJournal.recorder(for: command, image: bytes, store: journal)
            recorder = started.recorder
            for warning in started.warnings { renderer.render(.warning(warning), at: .now) }
        }
        if let warning = FlashCommand.modeWarning(command.mode, image: command.imageIndex) {
            renderer.render(.warning(warning), at: .now)
        }
        let run = engine.start()
        let interruption = GracefulInterruption { run.result.cancel() }
        for await event in run.events where !interruption.wasInterrupted {
            if let failure = recorder?.record(event, at: .now, unixTime: FlashJournal.unixTime()) {
                renderer.render(.warning(FlashJournal.warning(failure)), at: .now)
            }
            renderer.render(event, at: .now)
        }
        let result = await run.result.value
        await deviceTarget.close()
        interruption.finish()
        if interruption.wasInterrupted {
            // The connection is closed; the device keeps what it acknowledged, and the journal says
            // which update this was, so `dfu resume` (or the same command again) carries on.
            _ = recorder?.finish(exitCode: ExitStatus.interrupted.rawValue, message: "interrupted",
                                 at: .now, unixTime: FlashJournal.unixTime())
            console.error(GracefulInterruption.message + FlashJournal.resumeHint(for: command, journaled: recorder != nil))
            return .interrupted
        }
        let status = renderer.finish(result, at: .now)
        _ = recorder?.finish(exitCode: status.rawValue, message: FlashJournal.message(result),
                             at: .now, unixTime: FlashJournal.unixTime())
        return status
    }

    /// Reports a failure found before the update could start (a journal that cannot be resumed),
    /// as the run would have: a result line with `--json`.
    func refuse(_ error: DFUError, _ console: Console) -> ExitStatus {
        var renderer = makeRenderer(console)
        return renderer.finish(.failure(error), at: .now)
    }

    private func makeRenderer(_ console: Console) -> any EventRenderer {
        if command.common.json {
            return NDJSONRenderer(sink: console, configuration: .init(command: commandName,
                                                                      verbose: command.common.verbose))
        }
        return TerminalRenderer(sink: console, configuration: .init(
            imageName: FlashCommand.fileName(command.image), minimumBattery: command.minBattery,
            isTerminal: Console.isTerminal(.standardOutput), verbose: command.common.verbose,
            requireNewer: command.requireNewer, keyGiven: command.key != nil))
    }
}
