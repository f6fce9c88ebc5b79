import ArgumentParsing
import BlueZTransport
import DFUCore
import ExitCodes
import Foundation
import Transport

/// `dfu batch PLAN`: many devices, several at once, each updated as `dfu flash` would (journal
/// included), one report line each and one exit status for all. The factory line's command.
struct BatchCommand: DFUCommand {
    static let name = "batch"
    static let abstract = "Update many devices, several at once, from a plan (CSV or JSON lines)."
    static let discussion = """
        PLAN lists one device per row: CSV with a header row, or JSON lines with the same keys. \
        Columns: device and image (required), key, expect_version, mode, min_battery and passkey; \
        an empty cell takes the command line's value, a cell overrides it. Any other column (a \
        serial number, notes) is kept and echoed in the device's report line. device is anything \
        'dfu flash --device' takes; relative paths are read from the plan's directory, also those \
        inside a sim: device (key=, enc_key=); '#' starts a comment line. Every row is checked \
        before anything runs: one bad row refuses the plan (exit 2).

        Each device is updated as 'dfu flash' does it, with its own journal. A device whose \
        journal says an earlier run finished this update with the same file is asked first (one \
        connection, nothing sent): skipped if it runs the image (SMP: the running image's hash; \
        Nordic: the version its application reports), flashed if not, and reported not-checked, \
        with its failure's exit status, if it cannot be asked. One cut off resumes where the \
        device stopped: run the same batch again after fixing what failed. --parallel N devices \
        run at once; Bluetooth devices are spread over the \
        --adapter given (repeat it for several, or give 'all' for every powered one; by \
        default the first powered one), at most \
        --per-adapter on each, and each adapter sets up one connection at a time (many \
        controllers refuse a second one while one is pending) while the transfers run in \
        parallel. A passkey cell pairs that device when it asks; passkeys are never printed.

        --dry-run checks every device as 'dfu flash --dry-run' does and sends nothing; each is \
        reported as checked, or failed with the exit status the real run would give.

        On a terminal a line per device in flight shows its stage and progress; each device gets \
        one line when it ends, and a summary follows. With --json (and always into --report \
        FILE) each device is one JSON line: device (in full), image, protocol, result (ok, \
        checked, failed, skipped, not-checked, interrupted), exit code, the stage it ended in, \
        versions before and after, duration, bytes, error and the plan's extra columns; then one \
        summary line (docs/json-events.md). --report never writes over the plan, and replaces a \
        file that is not a dfu batch report only with --force.

        The exit status is 0 when every device ended ok, skipped or checked; else the most \
        severe of the devices' codes, in the order of the list below (each device's own is in \
        its line). 2 only when nothing was started.

        Examples:
          dfu batch line-7.csv --key signing-pub.pem --parallel 4 --report line-7.jsonl
          dfu batch plan.jsonl --adapter hci0 --adapter hci1 --parallel 8 --json
          dfu batch plan.csv --mode confirm-only --min-battery 50

        Exit status:
          130  interrupted by SIGINT or SIGTERM: run the batch again, or 'dfu resume'
          1    internal error (a bug in dfu)
          2    usage error, or a plan that cannot run: nothing was started
          3    a file or key that cannot be used; also a row refused when its turn
               came while other devices ran
          8    a device's check after reboot failed (rolled back, wrong version)
          7    a device rejected the update
          9    a device's authenticated link could not be set up (pairing)
          4    a precondition not met on a device (battery, downgrade, slot size)
          6    a transfer interrupted (resumable)
          5    a device not reachable (also one not checked for that reason)
          0    every device runs its new image (or was asked and already did)
        """

    @Argument(valueName: "PLAN", help: "The plan: a CSV file with a header row, or JSON lines (one object per device). With --discover: the file to flash onto every device found.")
    var plan: String

    @Option(valueName: "FILTER", help: "Instead of a plan, scan and update every device that matches, once: name:GLOB (name:sensor-*), service:UUID, or any (SMP or Nordic DFU); needs --count or --until.")
    var discover: String?

    @Option(valueName: "N", help: "With --discover: stop once N devices are updated (or failed); a device that already runs the image does not count.")
    var count: Int?

    @Option(valueName: "SECONDS", help: "With --discover: stop looking for devices after SECONDS (devices in flight finish).")
    var until: Double?

    @Option(valueName: "DBM", help: "With --discover: leave out devices heard weaker than this, e.g. -70.")
    var rssiMin: Int?

    @Option(valueName: "PUB.pem", help: "Public key every row's file must be signed with, unless its key column names another.")
    var key: String?

    @Option(valueName: "MODE", help: "What follows each upload, unless a row's mode says otherwise: test-confirm, confirm-only, test-only or upload-only. (default: test-confirm)")
    var mode: ActivationMode?

    @Option(valueName: "PERCENT", help: "Refuse a device whose battery is below this level, unless its row says otherwise. (default: 30)")
    var minBattery: Int?

    @Flag(help: "Allow images whose version is not newer than the running one.")
    var allowDowngrade = false

    @Flag(help: "Accept Nordic packages whose images are not signed although a key is given.")
    var allowUnsigned = false

    @Flag(help: "Allow the updates while this computer runs on battery.")
    var allowHostBattery = false

    @Flag(help: "Pair and bond every Bluetooth device first, even if it does not ask (needs its passkey column).")
    var pair = false

    @Flag(help: "Check every device as 'dfu flash --dry-run' does (file, key, connection, device state, preconditions) and send nothing.")
    var dryRun = false

    @Option(valueName: "N", help: "Devices updated at once, 1-64.")
    var parallel = 1

    @Option(valueName: "N", help: "Bluetooth devices at once on one adapter, 1-16.")
    var perAdapter = 4

    @Option(name: "adapter", valueName: "hciN|all", help: "A BlueZ adapter to spread Bluetooth devices over; repeat for several, or 'all' for every powered one. (default: the first powered one)")
    var adapters: [String] = []

    @Option(valueName: "FILE", help: "Also write the JSON report lines to FILE (replaced whole as each device ends; never the plan).")
    var report: String?

    @Flag(help: "Replace a --report FILE that exists and is not a dfu batch report.")
    var force = false

    @Flag(help: "Show Bluetooth addresses in full on the terminal instead of shortened (…:EE:FF); --json and --report always carry them in full.")
    var fullAddresses = false

    var common = CommonOptions(json: .deviceReports)

    @OptionGroup(title: "TIMEOUT OPTIONS")
    var timeouts = FlashTimeouts()

    /// `--adapter all`: every adapter bluetoothd reports powered when the batch starts.
    static let allAdapters = "all"

    /// Most hosts run out of file descriptors, radio time or patience long before this.
    static let maximumParallel = 64

    func validate() throws(UsageError) {
        if plan.isEmpty { throw UsageError("PLAN must not be empty") }
        if key?.isEmpty == true { throw UsageError("--key needs a path to a PEM public key") }
        guard (1 ... Self.maximumParallel).contains(parallel) else {
            throw UsageError("--parallel must be from 1 to \(Self.maximumParallel)")
        }
        guard (1 ... 16).contains(perAdapter) else { throw UsageError("--per-adapter must be from 1 to 16") }
        if adapters.contains(Self.allAdapters) {
            guard adapters.count == 1 else { throw UsageError("--adapter all stands alone: give either 'all' or adapter names") }
        } else {
            for adapter in adapters { try AdapterOption.check(adapter) }
        }
        if let minBattery, !(0 ... 100).contains(minBattery) {
            throw UsageError("--min-battery must be a percentage from 0 to 100")
        }
        if force && report == nil { throw UsageError("--force goes with --report FILE") }
        try timeouts.validate()
        try validateDiscovery()
    }

    private func validateDiscovery() throws(UsageError) {
        guard let discover else {
            for (name, given) in [("--count", count != nil), ("--until", until != nil), ("--rssi-min", rssiMin != nil)] where given {
                throw UsageError("\(name) goes with --discover")
            }
            return
        }
        _ = try BatchDiscoveryFilter(parsing: discover)
        if count == nil && until == nil { throw UsageError("--discover needs --count N or --until SECONDS (or both)") }
        if let count, count < 1 { throw UsageError("--count must be at least 1") }
        if let until, !(until > 0 && until <= FlashTimeouts.maximum) {
            throw UsageError("--until must be more than 0 and at most \(Int(FlashTimeouts.maximum)) seconds")
        }
        if let rssiMin, !(-127 ... 20).contains(rssiMin) { throw UsageError("--rssi-min must be from -127 to 20 dBm") }
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        do throws(DFUError) {
            return try await runBatch(console)
        } catch {
            // Refused before any device ran (a plan row, the file, BlueZ for --discover): with
            // --json that is the result line, as for every other command.
            guard common.json else { throw error }
            BatchOutput(console: console, json: true, live: false, report: nil, deviceWidth: 0).refused(error)
            return error.exitStatus
        }
    }

    private func runBatch(_ console: Console) async throws(DFUError) -> ExitStatus {
        let defaults = self.defaults
        let adapters = try await resolvedAdapters()
        let journal = FlashJournal.standardStore()
        let reportFile: BatchReportFile?
        let source = BatchJobQueue()
        var discovery: (BatchDiscovery, BlueZCentral)?
        var devices = 0
        var doneBefore = 0
        if discover == nil {
            let plan = try readPlan()
            // With --json stderr stays empty: such a column is in each line's "extra" as written.
            for warning in plan.warnings where !common.json { console.error("dfu: warning: " + warning) }
            try check(plan, defaults: defaults, adapter: adapters.first)
            reportFile = try openReport()
            let jobs = BatchJobs.make(plan.rows, fullAddresses: fullAddresses, journal: dryRun ? nil : journal)
            for job in jobs { source.push(job) }
            source.finish()
            devices = jobs.count
            doneBefore = jobs.filter { $0.earlier != nil }.count
        } else {
            let made = try await makeDiscovery(defaults: defaults, adapter: adapters.first, journal: journal)
            discovery = made
            do throws(DFUError) { reportFile = try openReport() } catch {
                made.1.close()
                throw error
            }
        }
        let output = BatchOutput(console: console, json: common.json, live: Console.isTerminal(.standardOutput),
                                 report: reportFile, deviceWidth: discovery == nil ? source.pendingNameWidth : 17)
        if let (_, central) = discovery {
            output.beginDiscovery(filter: discover ?? "", adapter: central.adapterName, count: count, until: until)
        } else {
            output.begin(devices: devices, parallel: parallel, doneBefore: doneBefore)
        }

        let verboseConsole = console.verbose(common.verbose && !common.json)
        var log: (@Sendable (String, String) -> Void)?
        if common.verbose && !common.json { log = { name, line in verboseConsole.log("\(name): \(line)") } }
        let board = BatchBoard()
        let runner = BatchRunner(jobs: [], defaults: defaults, fullAddresses: fullAddresses, parallel: parallel,
                                 perAdapter: perAdapter, adapters: adapters, journal: journal, board: board, log: log)
        let start = ContinuousClock.now
        let scanning = discovery
        let finder = scanning.map { found in Task { await found.0.run(on: found.1, into: source) } }
        let work = Task {
            await runner.run(arriving: source) { report in
                scanning?.0.ended(counts: report.result != .skipped)
                output.finished(report)
            }
        }
        let interruption = GracefulInterruption {
            finder?.cancel()
            work.cancel()
        }
        let ticker = output.live ? Task {
            while !Task.isCancelled {
                output.redraw(board.inFlight)
                try? await Task.sleep(for: .milliseconds(250))
            }
        } : nil
        let finished: [BatchDeviceReport] = await work.value
        let scanFailure = await finder?.value
        discovery?.1.close()
        ticker?.cancel()
        _ = await ticker?.value
        interruption.finish()
        let reports = finished.sorted { $0.line < $1.line }
        var status = BatchExitStatus.of(reports)
        if let scanFailure {
            // The scan could not run (or stopped): the devices found so far are reported, and the
            // station learns that BlueZ failed.
            console.error("dfu: error: discovery stopped: \(scanFailure.description)")
            status = ExitStatus.mostSevere([status, .deviceUnreachable])
        }
        output.summary(reports, status: status, duration: ContinuousClock.now - start)
        if status == .interrupted {
            console.error(GracefulInterruption.message + "; run the same batch again (or 'dfu resume') to finish it")
        }
        return status
    }

    /// `--adapter` as given, or for `all` the adapters powered now (none: exit 5 with BlueZ's
    /// words, before any device runs).
    private func resolvedAdapters() async throws(DFUError) -> [String] {
        guard adapters == [Self.allAdapters] else { return adapters }
        do throws(BlueZError) {
            return try await BlueZCentral.poweredAdapters()
        } catch {
            throw .deviceUnreachable("--adapter all: \(error.description)")
        }
    }

    /// `--discover`: the scan on the first --adapter (or the default one) and how a heard device
    /// becomes a job (PLAN is the file; the row is the batch's own options).
    private func makeDiscovery(defaults: BatchDefaults, adapter: String?,
                               journal: JournalStore?) async throws(DFUError) -> (BatchDiscovery, BlueZCentral) {
        let filter: BatchDiscoveryFilter
        do throws(UsageError) { filter = try BatchDiscoveryFilter(parsing: discover ?? "any") } catch { throw .usage(error.message) }
        let image = FlashJournal.absolutePath(plan)
        // The file is checked once, as a plan's rows are, before the first device is connected.
        let probe = BatchRow(line: 0, device: "00:00:00:00:00:00", image: image)
        do throws(BatchRowProblem) { _ = try probe.request(defaults: defaults, adapter: adapter) } catch {
            throw .usage(error.description)
        }
        let central: BlueZCentral
        do throws(BlueZError) { central = try await BlueZCentral.open(adapter: adapter) } catch {
            throw .deviceUnreachable(error.description)
        }
        let fullAddresses = self.fullAddresses
        let described = BatchJobs.make([probe], fullAddresses: fullAddresses, journal: nil).first
        let seconds = until.map { FlashTimeouts.duration($0) } ?? .seconds(Int(FlashTimeouts.maximum))
        let discovery = BatchDiscovery(filter: filter, minimumRSSI: rssiMin, count: count, until: seconds) { address, number in
            let row = BatchRow(line: number, device: address, image: image)
            let spec = try? DeviceSpec(parsing: address)
            return BatchJob(row: row, name: spec?.displayName(fullAddresses: fullAddresses) ?? address,
                            fullName: spec?.description ?? address, identity: spec?.description ?? address,
                            file: described?.file)
        }
        return (discovery, central)
    }

    /// The batch's own options that go into every row's request.
    var defaults: BatchDefaults {
        BatchDefaults(key: key.map(FlashJournal.absolutePath), mode: mode, minBattery: minBattery,
                      allowDowngrade: allowDowngrade, allowUnsigned: allowUnsigned, allowHostBattery: allowHostBattery,
                      pair: pair, dryRun: dryRun, timeouts: timeouts.requested)
    }
}
