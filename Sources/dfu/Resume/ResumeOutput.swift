import DFUCore
import ExitCodes

/// What `dfu resume` prints around the resumed runs (whose own lines are `dfu flash`'s): the list of
/// unfinished updates, one line before each resumed run, and the results that are not a run's.
/// Text on a terminal, or JSON lines (`docs/json-events.md`, "dfu resume --json").
///
/// Records name devices in full, so that what they print can be given to `--device` again: the
/// list, and every JSON line. Lines that narrate a run ("resuming …", the summary) are for people
/// and shorten a Bluetooth address unless `--full-addresses`, as `dfu flash` does.
struct ResumeOutput {
    var json: Bool
    var fullAddresses: Bool
    var console: Console

    /// `dfu resume --list`.
    func list(_ journals: [UpdateJournal], setAside: [JournalStore.SetAside]) {
        if json {
            for journal in journals { line(UpdateEventJSON.object("unfinished", fields(of: journal))) }
            for file in setAside {
                line(UpdateEventJSON.object("warning", [("message", .string(FlashJournal.setAsideWarning(file)))]))
            }
            line(result([("unfinished", .int(journals.count))]))
            return
        }
        guard !journals.isEmpty else {
            console.out("no unfinished updates")
            return
        }
        var rows = [["DEVICE", "IMAGE", "STAGE", "PROGRESS", "ATTEMPTS", "LAST RESULT", "UPDATED"]]
        for journal in journals {
            rows.append([journal.device, FlashCommand.fileName(journal.imagePath), journal.stage,
                         progress(journal), String(journal.attempts), lastResult(journal),
                         UTCTimestamp.text(journal.updatedAt)])
        }
        console.out(ColumnTable.render(rows))
    }

    /// The line before one resumed run.
    func resuming(_ journal: UpdateJournal) {
        if json {
            line(UpdateEventJSON.object("resume", fields(of: journal)))
        } else {
            console.out("resuming \(name(journal.device)): \(FlashCommand.fileName(journal.imagePath)), "
                + "stopped in \(journal.stage) (\(progress(journal))), attempt \(journal.attempts + 1)")
        }
    }

    func nothingToResume(device: String?) {
        if json {
            line(summaryResult([], status: .success))
        } else {
            console.out(device.map { "no unfinished update for \(name($0))" } ?? "nothing to resume")
        }
    }

    /// A journal that cannot become a run: reported as the run's last line would be.
    func refused(_ error: DFUError) -> ExitStatus {
        if json {
            line(UpdateEventJSON.result(command: ResumeCommand.name, .failure(error), event: ResumeCommand.runResultEvent))
        } else {
            console.error("dfu: error: \(error.description)")
        }
        return error.exitStatus
    }

    func fields(of journal: UpdateJournal) -> [(String, JSONValue)] {
        [("device", .string(journal.device)), ("image", .string(journal.imagePath)),
         ("image_sha256", .string(journal.imageSHA256)), ("protocol", .string(journal.protocolName.rawValue)),
         ("mode", .string(journal.mode.rawValue)), ("stage", .string(journal.stage)), ("part", journal.part.map { .string($0) } ?? .null),
         ("offset", .int(journal.offset)), ("size", .int(journal.imageSize)), ("attempts", .int(journal.attempts)),
         ("last_exit_code", journal.lastOutcome.map { .int(Int($0.exitStatus.rawValue)) } ?? .null),
         ("last_error", journal.lastOutcome.map { .string($0.message) } ?? .null),
         ("updated_at", .int(journal.updatedAt))]
    }

    /// A `result` line of `dfu resume` that ends well: `fields` between `exit_code` and `error`.
    func result(_ fields: [(String, JSONValue)]) -> JSONValue {
        UpdateEventJSON.object("result", [("command", .string(ResumeCommand.name)), ("ok", .bool(true)),
                                          ("exit_code", .int(0))] + fields + [("error", .null)])
    }

    private func progress(_ journal: UpdateJournal) -> String {
        if let part = journal.part { return "\(part): \(journal.offset) bytes" }
        guard journal.imageSize > 0 else { return "-" }
        return "\(journal.offset * 100 / journal.imageSize) %"
    }

    private func lastResult(_ journal: UpdateJournal) -> String {
        guard let outcome = journal.lastOutcome else { return "cut off" }
        return outcome.result == .interrupted ? "interrupted" : "exit \(outcome.exitStatus.rawValue)"
    }

    /// A journal names devices in full; lines for people shorten addresses unless asked not to.
    func name(_ device: String) -> String {
        guard let spec = try? DeviceSpec(parsing: device) else { return device }
        return spec.displayName(fullAddresses: fullAddresses)
    }

    func line(_ value: JSONValue) {
        console.out(value.encoded)
    }
}
