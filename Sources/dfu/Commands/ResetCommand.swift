import ArgumentParsing
import DFUCore
import ExitCodes
import Transport

/// `dfu reset --device DEVICE [--wait]`: resets the device (SMP OS reset), as `mcumgr reset` does;
/// with `--wait`, until it answers again.
struct ResetCommand: SMPOperationCommand {
    static let name = "reset"
    static let abstract = "Reset a device; with --wait, until it is back."
    static let discussion = """
        Sends the SMP reset request. The device answers and restarts a moment later; MCUboot then \
        boots the image set to boot next ('dfu image test', 'dfu image confirm HASH') or goes \
        back to the previous one from an unconfirmed test. With --wait, dfu waits until the \
        device is back (over BLE: it dropped the link and can be connected again; over UDP: it \
        went silent and answers again), at most --reboot-timeout, counting the seconds on a \
        terminal. --force resets a device whose application refuses the reset as busy.

        \(devicesParagraph())

        Examples:
          dfu reset --device C2:11:40:55:7A:01
          dfu reset --device udp:192.0.2.7:1337 --wait --json

        \(exitStatuses([(8, "--wait: the device did not come back within --reboot-timeout")]))
        """

    @Flag(help: "Wait until the device is back after the reset (at most --reboot-timeout).")
    var wait = false

    @Option(valueName: "SECONDS", help: "With --wait: seconds from the reset until the device answers again (MCUboot may swap meanwhile).")
    var rebootTimeout = UpdateOptions.Deadlines().reboot.seconds

    @Flag(help: "Reset even if the device's application refuses as busy (SMP force).")
    var force = false

    var operation = SMPOperationOptions()

    func validate() throws(UsageError) {
        try operation.validate()
        guard rebootTimeout > 0, rebootTimeout <= FlashTimeouts.maximum else {
            throw UsageError("--reboot-timeout must be more than 0 and at most \(Int(FlashTimeouts.maximum)) seconds")
        }
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        var run = operation.run
        run.deadlines.reboot = .milliseconds(Int((rebootTimeout * 1000).rounded()))
        let view = ResetView(console: console, quiet: operation.common.json || !wait)
        let (wait, force) = (wait, force)
        let outcome = await run.run(console, observe: { view.observe($0) }) { device async throws(DFUError) in
            try await device.reset(force: force, waitForReboot: wait)
        }
        let back = view.end()
        return try SMPOperationOutput.finish(outcome, command: Self.name, json: operation.common.json, console: console, text: { _ in
            guard wait, let back else { return "OK: reset sent to \(outcome.device); it restarts now" }
            return "OK: \(outcome.device) is back after \(HumanUnits.duration(back))"
        }, fields: { _ in
            [JSONField("waited", .bool(wait)),
             JSONField("reboot_duration", back.map { .number($0.seconds, maximumFractionDigits: 3) } ?? .null)]
        })
    }
}
