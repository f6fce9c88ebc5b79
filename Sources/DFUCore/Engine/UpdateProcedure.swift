import Transport

/// One run of `UpdateEngine`: the stages in order, each with its events and deadline, for any
/// protocol (`UpdateProtocol` supplies what differs).
///
/// - verify-image: the protocol checks the file as `dfu verify` does (exit 3 before anything is
///   connected); no key → a warning that the signature was not checked.
/// - connect: link (capped backoff within `deadlines.connect`), the protocol's GATT layout checked,
///   its client on the link, then its negotiation. Ends with `.connected`.
/// - read-device-state: the protocol's facts and plan, then battery and firmware revision
///   (`StandardGATTReader`).
/// - A device that already runs this exact update goes straight to confirm-version: nothing is
///   sent (it is confirmed if the mode confirms and it is not yet).
/// - check-preconditions: `Preconditions.check`; any failure is exit 4 before the first byte.
/// - transfer (`TransferStage`), skipped when the device already holds the update; part by part
///   when the update has several (a Nordic part's end activates it, the device resets, `RebootWait`
///   reconnects where it comes back, then the next part; MCUboot images all go first and the one
///   activation installs them together; a part the device declines or already holds is skipped
///   with a warning), from the part the device says it is at.
/// - `upload-only` ends here. activate: after an upload, the battery read again (below
///   `--min-battery`: exit 4, the update on the device and not activated; not where the device
///   activates by itself at the transfer's end), then the protocol's activation up to the reset.
///   reconnect: wait for the drop, reconnect within `deadlines.reboot` (`RebootWait`), unless the
///   device cannot be reached after its activation (`reachableAfterActivation`) or already
///   restarted into the update by itself. confirm-version: the protocol's check.
struct UpdateProcedure<Protocol: UpdateProtocol> {
    let engine: UpdateEngine
    let updateProtocol: Protocol
    let emit: @Sendable (UpdateEvent) -> Void
    private var connection: DeviceConnection<Protocol.Client>?

    init(engine: UpdateEngine, protocol updateProtocol: Protocol, emit: @escaping @Sendable (UpdateEvent) -> Void) {
        self.engine = engine
        self.updateProtocol = updateProtocol
        self.emit = emit
    }

    private var options: UpdateOptions { engine.options }
    private var deadlines: UpdateOptions.Deadlines { engine.options.deadlines }
    private var device: String { engine.target.label ?? engine.target.peer.redacted }
    private var context: SessionContext {
        SessionContext(clock: engine.clock, options: options, device: device, identity: engine.target.peer.rawValue,
                       emit: emit)
    }

    mutating func run() async -> Result<ImageVersion, DFUError> {
        let result: Result<ImageVersion, DFUError>
        do throws(DFUError) {
            result = .success(try await stages())
        } catch {
            result = .failure(error)
        }
        await connection?.close()
        connection = nil
        return result
    }

    private mutating func stages() async throws(DFUError) -> ImageVersion {
        var started = try begin(.verifyImage)
        var update = try updateProtocol.prepare(engine.image, key: engine.key, options: options)
        for summary in update.summaries { emit(.imageChecked(summary)) }
        if let speaks = engine.target.speaks, speaks != updateProtocol.name {
            throw .usage(WrongFile.message(file: "\(engine.imageName) is an update for \(updateProtocol.name)",
                                           device: device, speaks: speaks))
        }
        if let warning = update.signatureWarning { emit(.warning(warning)) }
        try end(.verifyImage, started)

        started = try begin(.connect)
        let connection = try await connect()
        self.connection = connection
        let session = try await updateProtocol.open(connection, context: context)
        emit(.connected(summary(connection.link, window: session.window)))
        try end(.connect, started)

        started = try begin(.readDeviceState)
        var state = try await session.readState(for: &update)
        state.facts = await StandardGATTReader(link: connection.link, log: context.log, warn: context.warn).fill(state.facts)
        emit(.deviceState(state.facts))
        try end(.readDeviceState, started)

        if case .alreadyRunning(let confirmed) = state.plan {
            emit(.warning("\(device) already runs this image (\(update.summary.versionText)); nothing to upload"))
            if options.dryRun {
                emit(.dryRunPassed(DryRunVerdict(plan: confirmed ? .nothing : .confirmOnly, mode: options.mode)))
                return update.version
            }
            started = try begin(.confirmVersion)
            let version = try await session.confirm(update, mode: options.mode, before: state,
                                                    readUntil: engine.clock.reachableBy(.zero))
            try end(.confirmVersion, started)
            return version
        }

        started = try begin(.checkPreconditions)
        let checks = state.imageChecks ?? [Preconditions.ImageCheck(version: update.version, size: update.size,
                                                                   runningVersion: state.facts.runningVersion,
                                                                   slotSize: state.facts.slotSize)]
        let verdict = Preconditions.check(images: checks, device: state.facts, host: engine.hostPower, options: options)
        guard verdict.passed else { throw .precondition(verdict.failures) }
        emit(.preconditionsPassed(verdict))
        if let warning = state.revertWarning, options.mode == .testConfirm || options.mode == .testOnly {
            emit(.warning(warning))
        }
        try end(.checkPreconditions, started)
        if options.dryRun {
            let plan: DryRunVerdict.Plan = state.plan == .alreadyUploaded ? .activateOnly : .upload(bytes: update.size)
            emit(.dryRunPassed(DryRunVerdict(plan: plan, mode: options.mode, activatesItself: updateProtocol.activatesItself)))
            return update.version
        }

        if state.plan == .alreadyUploaded {
            emit(.warning("\(device) already holds this image in its second slot (an earlier run uploaded it); skipping the upload"))
        } else {
            started = try begin(.transfer)
            try await transferParts(of: update, from: state.firstPart, connection: connection, session: session)
            try end(.transfer, started)
        }
        if options.mode == .uploadOnly { return update.version }

        started = try begin(.activate)
        if session.activationNeedsLink, await connection.isLinkLost { try await reconnectBeforeActivation(connection) }
        if state.plan != .alreadyUploaded { try await checkBatteryAgain(connection, before: state.facts) }
        let lossesBefore = try await session.activate(update, mode: options.mode, losses: connection.losses)
        // Where the transfer's end was the activation (Nordic's final Execute), nothing was marked.
        if session.activationMarks { emit(.activated(options.mode)) }
        let rebootDeadline = engine.clock.reachableBy(deadlines.reboot)
        let reachable = session.reachableAfterActivation
        if reachable, lossesBefore != nil { emit(.rebooting) }
        try end(.activate, started)

        // nil: the device already restarted into the update, and the link is back to it.
        if reachable, let lossesBefore {
            started = try begin(.reconnect)
            _ = try await RebootWait(connection: connection, session: session, context: context)
                .run(lossesBefore: lossesBefore, deadline: rebootDeadline)
            emit(.reconnected(summary(connection.link, window: session.window)))
            try end(.reconnect, started)
        }

        started = try begin(.confirmVersion)
        let version = try await session.confirm(update, mode: options.mode, before: state, readUntil: rebootDeadline)
        try end(.confirmVersion, started)
        return version
    }

    /// A link lost before the transfer stage watches for losses (while the device's state was
    /// read, or between parts) is made again first: nothing may be sent into a link that is gone.
    private func restoreLinkIfLost(_ connection: DeviceConnection<Protocol.Client>, window: Int) async throws(DFUError) {
        guard await connection.isLinkLost else { return }
        let reason = await connection.lossReason(within: context.deadlines.request)
        emit(.warning("the link to \(device) was lost" + (reason.map { " (\($0))" } ?? "") + "; reconnecting"))
        let allowance = context.deadlines.connect
        if case .failure(let failure) = await connection.reconnect(until: context.clock.reachableBy(allowance), log: context.log) {
            throw .deviceUnreachable("the link to \(device) was lost before the transfer and it did not come back within "
                                     + "\(allowance) (\(failure)). \(EngineFailure.rerun)", cause: failure.cause)
        }
        emit(.reconnected(summary(connection.link, window: window)))
    }

    /// The transfer stage: each part from `first` on, entering the update mode before each (the
    /// device may come back from a part as the application), and waiting for the reboot that
    /// activates every part but the last (the last one's is the activate and reconnect stages').
    private func transferParts(of update: Protocol.Update, from first: Int, connection: DeviceConnection<Protocol.Client>,
                               session: Protocol.Session) async throws(DFUError) {
        let parts = update.parts
        guard parts.indices.contains(first) else {
            throw .internalError("the transfer was to start at part \(first + 1) of \(parts.count)")
        }
        if first > 0 {
            emit(.warning("\(device) is already receiving \(parts[first].label) (an earlier run sent the parts before it); "
                          + "continuing there"))
        }
        for part in parts[first...] {
            try await restoreLinkIfLost(connection, window: session.window)
            try await session.enterUpdateMode(for: update)
            if parts.count > 1 { emit(.partStarted(part)) }
            let transferred = try await TransferStage(connection: connection, session: session, context: context)
                .run(update, part: part)
            try stopIfCancelled(before: nil)  // a cancelled upload ends early: activate nothing
            if case .skipped(let why) = transferred {
                emit(.warning(why))
                continue
            }
            if part.isLast { return }
            // Held by the device until the one activation after the last part: the next follows.
            guard let lossesBefore = try await session.partActivated(update, part: part) else { continue }
            let rebootDeadline = engine.clock.reachableBy(deadlines.reboot)
            emit(.rebooting)
            _ = try await RebootWait(connection: connection, session: session, context: context)
                .run(lossesBefore: lossesBefore, deadline: rebootDeadline)
            emit(.reconnected(summary(connection.link, window: session.window)))
        }
    }

    // MARK: - Stage helpers

    /// Announces `stage`; a cancelled run (Ctrl-C in the CLI) starts no further stage.
    private func begin(_ stage: UpdateStage) throws(DFUError) -> Duration {
        try stopIfCancelled(before: stage)
        emit(.stageStarted(stage))
        return engine.clock.now
    }

    /// Announces the end of `stage`. A stage whose work ended because the run was cancelled (an
    /// upload stream ends early then) did not finish: the run stops here instead.
    private func end(_ stage: UpdateStage, _ started: Duration) throws(DFUError) {
        try stopIfCancelled(before: nil)
        emit(.stageFinished(stage, duration: engine.clock.now - started))
    }

    private func stopIfCancelled(before stage: UpdateStage?) throws(DFUError) {
        guard Task.isCancelled else { return }
        let when = stage.map { " before \($0.rawValue)" } ?? ""
        throw .transferInterrupted("the update was cancelled\(when). \(EngineFailure.rerun)")
    }

    private func connect() async throws(DFUError) -> DeviceConnection<Protocol.Client> {
        emit(.log("connecting to \(device)"))
        let context = context
        let updateProtocol = updateProtocol
        return try await DeviceConnection.open(
            engine.target.connector, peers: updateProtocol.peers(for: engine.target.peer, options: options), label: device,
            until: engine.clock.reachableBy(deadlines.connect), clock: engine.clock, layout: updateProtocol.layout,
            client: { link async throws(LinkError) in try await updateProtocol.client(on: link, context: context) },
            updating: (engine.imageName, updateProtocol.name), log: context.log)
    }

    /// The link went down after the transfer ended (before anything activated it): reconnect once;
    /// the update is on the device, so a failure here is resumable.
    private func reconnectBeforeActivation(_ connection: DeviceConnection<Protocol.Client>) async throws(DFUError) {
        emit(.warning("the link to \(device) was lost after the upload; reconnecting"))
        let result = await connection.reconnect(until: engine.clock.reachableBy(deadlines.connect), log: context.log)
        if case .failure(let failure) = result {
            throw .transferInterrupted("the link to \(device) was lost after the upload and could not be restored "
                                       + "(\(failure)). \(EngineFailure.rerunWithImageOnDevice)", cause: failure.cause)
        }
    }

    /// The battery once more before activating what this run uploaded (`Preconditions.batteryBeforeActivation`),
    /// where it was read before the transfer and the limit is on. Not for a protocol whose device
    /// activates the update itself at the end of the transfer (Nordic): there is nothing left to hold
    /// back. A level that cannot be read now is logged and not held against the update: the check
    /// before the transfer passed, and the usual reason is a link going down after the upload
    /// (bluetoothd answers a read 0x0E before it reports the loss), which the activation's own
    /// requests then find and restore.
    private func checkBatteryAgain(_ connection: DeviceConnection<Protocol.Client>, before facts: DeviceFacts) async throws(DFUError) {
        guard !updateProtocol.activatesItself, facts.batteryLevel != nil, options.minimumBattery > 0 else { return }
        let context = context
        let reader = StandardGATTReader(link: connection.link, log: context.log,
                                        warn: { context.log("after the transfer: \($0)") })
        guard let level = await reader.batteryLevel() else { return }
        context.log("battery \(level) % after the transfer (minimum \(options.minimumBattery) %)")
        if let failure = Preconditions.batteryBeforeActivation(level: level, options: options) {
            throw .precondition([failure])
        }
    }

    /// What `.connected` and `.reconnected` say about `link`.
    private func summary(_ link: any Link, window: Int) -> ConnectionSummary {
        ConnectionSummary(link: link, device: device, identity: engine.target.peer.rawValue, window: window,
                          flashRate: engine.target.flashRate)
    }
}
