import ArgumentParsing
import DFUCore
import ExitCodes

/// `dfu resume [--device DEVICE]`: finish the updates that a run of `dfu flash` (or `dfu batch`)
/// did not, from their journals (`JournalStore`): the file is checked again (and refused if it
/// changed), the device is asked where it is, and the update carries on from there, the later
/// stages included. `--list` shows what is unfinished; `--forget` drops journals. A summary line
/// (with `--json` the one `result` line) ends the runs: how each ended.
struct ResumeCommand: DFUCommand {
    static let name = "resume"
    static let abstract = "Finish updates that were cut off (from the journal dfu keeps)."
    static let discussion = """
        Every 'dfu flash' that changed the device (it took bytes of the update, or was reset or \
        marked) keeps a journal of its update in $XDG_STATE_HOME/dfu/ (by default \
        ~/.local/state/dfu/): the device, the file with its SHA-256, the options, the stage it \
        reached; a run that ended before (the file, the connection, a precondition, an image the \
        device refused) left nothing to finish. 'dfu resume' runs each unfinished update again with \
        the same options, one after another: the file must still be the same (else exit 3: run \
        'dfu flash' to start over), the device says how much it holds and the upload continues \
        from there; an update cut off after the reset only reconnects, checks the version and \
        confirms. Timeouts, --passkey, --adapter and the output flags given here apply to the \
        resumed runs; one line at the end says how each ended. --list names each device in full, \
        as --device takes it; --forget drops unfinished updates (a finished one's journal stays). \
        A journal file that cannot be read is moved aside with a warning, never used.

        Examples:
          dfu resume
          dfu resume --device C2:11:40:55:7A:01 --passkey 123456
          dfu resume --list
          dfu resume --forget --device udp:192.0.2.7:1337
          dfu resume --forget --older-than 7
          dfu resume --forget --all

        Exit status:
          0    every update resumed is finished, or there was nothing to resume
          1    internal error (a bug in dfu)
          2    usage error, or a journal that cannot be resumed
          3    the file changed since the update started, or it cannot be used
          4-9  as 'dfu flash'; with several updates the most severe among them
          130  interrupted by SIGINT or SIGTERM: run 'dfu resume' again
        """

    @Option(valueName: "DEVICE", help: "Only the update of this device (as given to 'dfu flash --device').")
    var device: String?

    @Flag(help: "List the unfinished updates instead of resuming them.")
    var list = false

    @Flag(help: "Forget unfinished updates (their journals): of --device, --older-than DAYS or --all; the devices keep what they hold.")
    var forget = false

    @Flag(help: "With --forget: every unfinished update.")
    var all = false

    @Option(valueName: "DAYS", help: "With --list or --forget: only updates whose journal was last written more than DAYS days ago.")
    var olderThan: Int?

    var common = CommonOptions(json: .eventLines)

    @OptionGroup(title: "DEVICE OPTIONS")
    var bluetooth = BluetoothOptions()

    @OptionGroup(title: "PAIRING OPTIONS")
    var security = PairingOptions()

    @OptionGroup(title: "TIMEOUT OPTIONS")
    var timeouts = FlashTimeouts()

    func validate() throws(UsageError) {
        if let device { _ = try DeviceSpec(parsing: device) }
        if list && forget { throw UsageError("--list and --forget contradict each other; give one") }
        if all && !forget {
            throw UsageError("--all goes with --forget: 'dfu resume --forget --all' forgets every unfinished update")
        }
        if all && device != nil { throw UsageError("--all and --device contradict each other; give one") }
        if all && olderThan != nil { throw UsageError("--all and --older-than contradict each other; give one") }
        if let olderThan {
            guard (0 ... Self.maximumDays).contains(olderThan) else {
                throw UsageError("--older-than must be a number of days from 0 to \(Self.maximumDays)")
            }
            if !list && !forget { throw UsageError("--older-than picks the updates to --list or --forget; give one of them") }
        }
        if forget && device == nil && !all && olderThan == nil {
            throw UsageError("--forget needs the updates to forget: --device DEVICE, --older-than DAYS or --all")
        }
        try bluetooth.validate()
        try timeouts.validate()
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        guard let store = FlashJournal.standardStore() else {
            throw .usage("there is no place for update journals: set XDG_STATE_HOME or HOME")
        }
        let found = store.all()
        for setAside in found.setAside where !common.json {
            console.error("dfu: warning: " + FlashJournal.setAsideWarning(setAside))
        }
        let selection = ResumeSelection(device: deviceSpec?.description, olderThanDays: olderThan)
        let now = FlashJournal.unixTime()
        let unfinished = found.journals.filter { $0.status == .unfinished && selection.picks($0, now: now) }
        let output = ResumeOutput(json: common.json, fullAddresses: bluetooth.fullAddresses, console: console)
        if list {
            output.list(unfinished, setAside: found.setAside)
            return .success
        }
        if forget {
            // Only unfinished updates: a finished one's journal is the record `dfu batch` reads.
            for journal in unfinished {
                do throws(JournalError) { try store.remove(device: journal.device) } catch {
                    throw .internalError(error.description)
                }
            }
            output.forgot(unfinished, selection: selection)
            return .success
        }
        guard !unfinished.isEmpty else {
            output.nothingToResume(device: deviceSpec?.description)
            return .success
        }
        var updates: [ResumedUpdate] = []
        for journal in unfinished {
            output.resuming(journal)
            // Interrupted: the run said how to carry on; the others wait for the next 'dfu resume'.
            guard let update = await resume(journal, store: store, output, console) else { return .interrupted }
            updates.append(update)
        }
        return output.summary(updates)
    }

    /// The event of each resumed run's last JSON line: the `result` is the summary.
    static let runResultEvent = "update-result"
    /// `--older-than`'s largest value: a century.
    static let maximumDays = 36_500

    private var deviceSpec: DeviceSpec? { device.flatMap { try? DeviceSpec(parsing: $0) } }

    /// One journal's update, run again: its request, with this command's waits, output flags and,
    /// for a Bluetooth device, adapter and pairing; nil when a signal interrupted it.
    private func resume(_ journal: UpdateJournal, store: JournalStore, _ output: ResumeOutput,
                        _ console: Console) async -> ResumedUpdate? {
        var run = FlashRun(request: journal.request, journal: store, commandName: Self.name, resultEvent: Self.runResultEvent)
        run.output.json = common.json
        run.output.verbose = common.verbose
        run.request.timeouts = journal.request.timeouts.overridden(by: timeouts.requested)
        let spec: DeviceSpec
        do throws(DFUError) { spec = try journal.request.deviceSpec } catch {
            let refusal = DFUError.usage("the journal of \(journal.device) cannot be resumed (\(error.description)); "
                + "run 'dfu flash' again, or 'dfu resume --forget --device \(journal.device)'")
            return ResumedUpdate(journal: journal, status: output.refused(refusal), result: .failure(refusal))
        }
        switch spec {
        case .address, .name:
            run.output.fullAddresses = bluetooth.fullAddresses
            if let adapter = bluetooth.adapter { run.request.adapter = adapter }
            run.passkey = security.passkey
            if security.pair { run.request.pair = true }
        case .simulator, .udp, .serial:
            break
        }
        if let changed = ResumeFileCheck.problem(journal) {
            return ResumedUpdate(journal: journal, status: run.refuse(changed, console), result: .failure(changed))
        }
        let (status, result) = await run.report(console)
        return result.map { ResumedUpdate(journal: journal, status: status, result: $0) }
    }
}
