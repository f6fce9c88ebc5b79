import DFUCore
import ExitCodes
import Transport

/// The JSON object for each `UpdateEvent` and for the final result, as documented field by field in
/// `docs/json-events.md`. Every object starts with `"event"` and `"schema"` (`JSONEvent`); names are
/// snake_case like the `verify` result; durations are seconds and rates bytes per second, as
/// numbers; a fact the device did not report is `null`, never left out, so a script can index
/// without checking.
enum UpdateEventJSON {
    static func object(for event: UpdateEvent) -> JSONValue {
        switch event {
        case .stageStarted(let stage):
            return object("stage", [("stage", .string(stage.rawValue)), ("status", .string("started"))])
        case .stageFinished(let stage, let duration):
            return object("stage", [("stage", .string(stage.rawValue)), ("status", .string("finished")),
                                    ("duration", seconds(duration))])
        case .imageChecked(let summary):
            return object("image", [
                ("version", .string(summary.versionText)),
                ("size", .int(summary.size)),
                ("sha256", .string(hexString(summary.sha256))),
                ("signature", summary.signatureChecked.map { .string($0) } ?? .null),
            ] + imageFields(summary.image))
        case .connected(let summary):
            return object("connected", connectionFields(summary))
        case .deviceState(let facts):
            return object("device", [
                // A Nordic application's revision is its own text (`firmware_revision`), no MCUboot version.
                ("running_version", facts.runningVersionText == nil ? facts.runningVersion.map { .string($0.description) } ?? .null
                    : .null),
                ("running_sha256", facts.runningHash.map { .string(hexString($0)) } ?? .null),
                ("battery", facts.batteryLevel.map { .int($0) } ?? .null),
                ("firmware_revision", facts.firmwareRevision.map { .string($0) } ?? .null),
                ("slot_size", facts.slotSize.map { .int($0) } ?? .null),
                ("buf_size", facts.bufferSize.map { .int($0) } ?? .null),
                ("buf_count", facts.bufferCount.map { .int($0) } ?? .null),
                ("bootloader_mode", facts.bootloaderMode.map { .string($0) } ?? .null),
            ])
        case .preconditionsPassed(let verdict):
            return object("preconditions", [("passed", .bool(verdict.passed)),
                                            ("warnings", .array(verdict.warnings.map { .string($0) }))])
        case .partStarted(let part):
            return object("part", [("part", .string(part.name)), ("number", .int(part.number)),
                                   ("count", .int(part.count)), ("size", .int(part.size))] + imageFields(part.image))
        case .progress(let progress):
            return object("progress", [
                ("bytes", .int(progress.acknowledged)),
                ("total", .int(progress.total)),
                ("rate", .number(progress.rate, maximumFractionDigits: 1)),
                ("elapsed", seconds(progress.elapsed)),
                ("part", progress.part.map { .string($0.label) } ?? .null),
                ("resumed_from", .int(progress.startOffset)),
            ])
        case .dryRunPassed(let verdict):
            let plan: (String, Int)
            switch verdict.plan {
            case .upload(let bytes): plan = ("upload", bytes)
            case .activateOnly: plan = ("activate", 0)
            case .confirmOnly: plan = ("confirm", 0)
            case .nothing: plan = ("nothing", 0)
            }
            return object("dry-run", [("plan", .string(plan.0)), ("bytes", .int(plan.1)), ("mode", .string(verdict.mode.rawValue))])
        case .resumed(let offset, let attempt):
            return object("resumed", [("offset", .int(offset)), ("attempt", .int(attempt))])
        case .activated(let mode):
            return object("activated", [("mode", .string(mode.rawValue))])
        case .rebooting:
            return object("rebooting", [])
        case .bootloaderNamed(let name):
            return object("bootloader-named", [("name", .string(name))])
        case .reconnected(let summary):
            return object("reconnected", connectionFields(summary))
        case .versionConfirmed(let version, let confirmed, let image):
            return object("version", [("version", .string(version.description)), ("confirmed", .bool(confirmed))]
                          + imageFields(image))
        case .writtenByRecovery(let version, let hashChecked, let image):
            return object("recovery-written", [("version", .string(version.description)), ("slot", .int(0)),
                                               ("checked", .string(hashChecked ? "hash" : "version"))] + imageFields(image))
        case .firmwareReported(let update, let revision, let activated):
            return object("firmware", [("update", .string(update)), ("activated", .bool(activated)),
                                       ("firmware_revision", revision.map { .string($0) } ?? .null)])
        case .warning(let message):
            return object("warning", [("message", .string(message))])
        case .log(let message):
            return object("log", [("message", .string(message))])
        }
    }

    /// The last line of every run: `ok`, the exit code scripts branch on, the version now on the
    /// device (null on failure) and the error sentence (null on success). A precondition failure also
    /// lists each failed check, since several can fail at once.
    /// `versionText`: the version in the protocol's own words where they are not MCUboot's (what a
    /// Nordic bootloader activated, `application fw_version 3`); nil: the result's version.
    /// `event`: `update-result` for one run of `dfu resume` (its summary is the `result`).
    static func result(command: String, _ result: UpdateResult, dryRun: Bool = false, versionText: String? = nil,
                       event: String = "result") -> JSONValue {
        let status = result.exitStatus
        var fields: [(String, JSONValue)] = [
            ("command", .string(command)),
            ("ok", .bool(status == .success)),
            ("exit_code", .int(Int(status.rawValue))),
        ]
        switch result {
        case .success(let version):
            fields += [("version", .string(versionText ?? version.description)), ("error", .null)]
        case .failure(let error):
            fields += [("version", .null), ("error", .string(error.description))]
            if case .precondition(let failures) = error {
                fields.append(("failures", .array(failures.map { failure in
                    .object([JSONField("check", .string(checkName(failure))),
                             JSONField("message", .string(failure.description))])
                })))
            }
        }
        if dryRun { fields.append(("dry_run", .bool(true))) }
        return object(event, fields)
    }

    /// `image_index` and `role` of an event about one image of an update with several; nothing
    /// for an update of one image.
    private static func imageFields(_ image: UpdateImageName?) -> [(String, JSONValue)] {
        guard let image else { return [] }
        return [("image_index", .int(image.index)), ("role", image.role.map { .string($0) } ?? .null)]
    }

    /// A stable name per precondition, for scripts that react to one of them (charge, then retry).
    static func checkName(_ failure: PreconditionFailure) -> String {
        switch failure {
        case .batteryLow, .batteryFell: return "battery"
        case .notNewer: return "version"
        case .imageTooLarge: return "slot-size"
        case .hostOnBattery: return "host-power"
        case .unsupportedDevice, .notSMP: return "device-kind"
        case .directXIPVariantMissing, .directXIPBuildOnOtherMode: return "direct-xip-variant"
        case .inImage(_, let failure): return checkName(failure)
        }
    }

    /// The device in full: a record, where two devices whose shortened names agree stay apart.
    private static func connectionFields(_ summary: ConnectionSummary) -> [(String, JSONValue)] {
        [
            ("device", .string(summary.identity)),
            ("mtu", .int(summary.attMTU)),
            ("max_write", .int(summary.maxWrite)),
            ("phy", summary.phy.map { .string($0) } ?? .null),
            ("interval_ms", summary.connectionInterval.map {
                .number($0.seconds * 1000, maximumFractionDigits: 3)
            } ?? .null),
            ("window", .int(summary.window)),
            ("ceiling", summary.ceiling.map { .number($0, maximumFractionDigits: 1) } ?? .null),
        ]
    }

    static func object(_ event: String, _ fields: [(String, JSONValue)]) -> JSONValue {
        JSONEvent.object(event, fields.map { JSONField($0.0, $0.1) })
    }

    /// Milliseconds are the finest step any stage or progress report is meaningful at.
    private static func seconds(_ duration: Duration) -> JSONValue {
        .number(duration.seconds, maximumFractionDigits: 3)
    }
}
