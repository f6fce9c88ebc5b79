import DFUCore
import ExitCodes

/// `dfu resume [--device DEVICE]`: finish the updates that a run of `dfu flash` (or `dfu batch`)
/// did not, from their journals (`JournalStore`): the file is checked again (and refused if it
/// changed), the device is asked where it is, and the update carries on from there, the later
/// stages included. `--list` shows what is unfinished; `--forget` drops a journal.
struct ResumeCommand: ParsableCommand {
    static let name = "resume"
    static let abstract = "Finish updates that were cut off (from the journal dfu keeps)."
    static let discussion = """
        Every 'dfu flash' keeps a journal of its update in $XDG_STATE_HOME/dfu/ (by default \
        ~/.local/state/dfu/): the device, the file with its SHA-256, the options, the stage it \
        reached. 'dfu resume' runs each unfinished update again with the same options, one after \
        another: the file must still be the same (else exit 3: run 'dfu flash' to start over), the \
        device says how much it holds and the upload continues from there; an update cut off after \
        the reset only reconnects, checks the version and confirms. Timeouts, --passkey, --adapter \
        and the output flags given here apply to the resumed runs. A journal file that cannot be \
        read is moved aside with a warning, never used.

        Examples:
          dfu resume
          dfu resume --device C2:11:40:55:7A:01 --passkey 123456
          dfu resume --list
          dfu resume --forget --device udp:192.0.2.7:1337

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

    @Flag(help: "Forget the unfinished update of --device (its journal); the device keeps what it holds.")
    var forget = false

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
        if forget && device == nil { throw UsageError("--forget needs --device: the update to forget") }
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
        var unfinished = found.journals.filter { $0.status == .unfinished }
        if let spec = deviceSpec { unfinished = unfinished.filter { $0.device == spec.description } }
        let output = ResumeOutput(json: common.json, fullAddresses: bluetooth.fullAddresses, console: console)
        if list {
            output.list(unfinished, setAside: found.setAside)
            return .success
        }
        if forget, let spec = deviceSpec {
            do throws(JournalError) { try store.remove(device: spec.description) } catch {
                throw .internalError(error.description)
            }
            output.forgot(spec.description, hadJournal: !unfinished.isEmpty)
            return .success
        }
        guard !unfinished.isEmpty else {
            output.nothingToResume(device: deviceSpec?.description)
            return .success
        }
        var statuses: [ExitStatus] = []
        for journal in unfinished {
            output.resuming(journal)
            statuses.append(await resume(journal, store: store, console))
        }
        return ExitStatus.mostSevere(statuses)
    }

    private var deviceSpec: DeviceSpec? { device.flatMap { try? DeviceSpec(parsing: $0) } }

    /// One journal's update, run again as `dfu flash` with its arguments and this command's overrides.
    private func resume(_ journal: UpdateJournal, store: JournalStore, _ console: Console) async -> ExitStatus {
        let words = journal.arguments + overrides(for: journal)
        let command: FlashCommand
        do {
            command = try FlashCommand.parse(words)
        } catch {
            let reason = (error as? UsageError)?.message ?? "\(error)"
            let output = ResumeOutput(json: common.json, fullAddresses: bluetooth.fullAddresses, console: console)
            return output.refused(.usage("the journal of \(journal.device) cannot be resumed (\(reason)); "
                + "run 'dfu flash' again, or 'dfu resume --forget --device \(journal.device)'"))
        }
        let run = FlashRun(command: command, journal: store, commandName: Self.name)
        if let changed = ResumeFileCheck.problem(journal) { return run.refuse(changed, console) }
        return await run.run(console)
    }

    /// Words appended to the journal's arguments (the parser keeps an option's last value): the
    /// waits and output flags given here, and for a Bluetooth device the adapter and pairing.
    private func overrides(for journal: UpdateJournal) -> [String] {
        var words = timeouts.arguments
        if common.json { words.append("--json") }
        if common.verbose { words.append("--verbose") }
        guard let spec = try? DeviceSpec(parsing: journal.device) else { return words }
        switch spec {
        case .address, .name:
            if bluetooth.fullAddresses { words.append("--full-addresses") }
            if let adapter = bluetooth.adapter { words += ["--adapter", adapter] }
            if let passkey = security.passkey { words += ["--passkey", passkey.description] }
            if security.pair { words.append("--pair") }
        case .simulator, .udp:
            break
        }
        return words
    }
}
