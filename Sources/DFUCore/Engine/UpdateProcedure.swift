import Transport

/// One run of `UpdateEngine`: the stages in order, each with its events and deadline.
///
/// - verify-image: `ImageVerifier` as `dfu verify` (exit 3 before anything is connected); no key →
///   a warning that the signature was not checked.
/// - connect: link (capped backoff within `deadlines.connect`), SMP service and characteristic
///   checked, notifications on; then the MCUmgr parameters size the packets and the window
///   (`buf_count − 1`), and an echo finds out whether the device reassembles. Ends with `.connected`.
/// - read-device-state: image list (running version and hash), slot size, bootloader mode, battery,
///   firmware revision (`DeviceStateReader`).
/// - A device that already runs this exact image goes straight to confirm-version: nothing is
///   uploaded (it is confirmed if the mode confirms and it is not yet).
/// - check-preconditions: `Preconditions.check`; any failure is exit 4 before the first upload byte.
/// - transfer (`ImageTransfer`), skipped when slot 1 already holds this exact image.
/// - `upload-only` ends here. activate: mark (test or permanent), reset. reconnect: wait for the
///   drop, reconnect within `deadlines.reboot`. confirm-version (`VersionCheck`).
struct UpdateProcedure {
    let engine: UpdateEngine
    let emit: @Sendable (UpdateEvent) -> Void
    private var connection: DeviceConnection?

    init(engine: UpdateEngine, emit: @escaping @Sendable (UpdateEvent) -> Void) {
        self.engine = engine
        self.emit = emit
    }

    private var options: UpdateOptions { engine.options }
    private var deadlines: UpdateOptions.Deadlines { engine.options.deadlines }
    private var device: String { engine.target.label ?? engine.target.peer.redacted }

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
        var started = begin(.verifyImage)
        let image = try PreparedImage(bytes: engine.image, key: engine.key)
        emit(.imageChecked(image.summary))
        if let warning = image.signatureWarning { emit(.warning(warning)) }
        end(.verifyImage, started)

        started = begin(.connect)
        let connection = try await connect()
        self.connection = connection
        let negotiated = try await negotiate(connection)
        emit(.connected(summary(connection.link, window: negotiated.window)))
        end(.connect, started)

        started = begin(.readDeviceState)
        let snapshot = try await reader(connection).readImageState(negotiated)
        emit(.deviceState(snapshot.facts))
        end(.readDeviceState, started)

        let plan = UpdatePlan.decide(slotHash: image.slotHash, state: snapshot.images)
        if case .alreadyRunning = plan {
            emit(.warning("\(device) already runs this image (\(image.version)); nothing to upload"))
            started = begin(.confirmVersion)
            let version = try await versionCheck(connection, image, snapshot).run(readUntil: .now)
            end(.confirmVersion, started)
            return version
        }

        started = begin(.checkPreconditions)
        let verdict = Preconditions.check(imageVersion: image.version, imageSize: image.bytes.count,
                                          device: snapshot.facts, host: engine.hostPower, options: options)
        guard verdict.passed else { throw .precondition(verdict.failures) }
        emit(.preconditionsPassed(verdict))
        if let mode = snapshot.bootloaderMode, !mode.supportsRevert, options.mode == .testConfirm || options.mode == .testOnly {
            emit(.warning("the bootloader runs in \(mode) mode, which cannot roll back: the test boot makes the image permanent"))
        }
        end(.checkPreconditions, started)

        if plan == .alreadyUploaded {
            emit(.warning("\(device) already holds this image in its second slot (an earlier run uploaded it); skipping the upload"))
        } else {
            started = begin(.transfer)
            try await transfer(connection, image, window: snapshot.window)
            end(.transfer, started)
        }
        if options.mode == .uploadOnly { return image.version }

        started = begin(.activate)
        let activation = Activation(connection: connection, image: image, mode: options.mode, device: device,
                                    requestTimeout: deadlines.request, emit: emit)
        if await connection.isLinkLost { try await reconnectBeforeActivation(connection) }
        try await activation.mark()
        emit(.activated(options.mode))
        let lossesBefore = try await activation.reset()
        let rebootDeadline = engine.clock.reachableBy(deadlines.reboot)
        emit(.rebooting)
        end(.activate, started)

        started = begin(.reconnect)
        _ = try await activation.awaitReboot(lossesBefore: lossesBefore, deadline: rebootDeadline)
        emit(.reconnected(summary(connection.link, window: snapshot.window)))
        end(.reconnect, started)

        started = begin(.confirmVersion)
        let version = try await versionCheck(connection, image, snapshot).run(readUntil: rebootDeadline)
        end(.confirmVersion, started)
        return version
    }

    // MARK: - Stage helpers

    private func begin(_ stage: UpdateStage) -> Duration {
        emit(.stageStarted(stage))
        return engine.clock.now
    }

    private func end(_ stage: UpdateStage, _ started: Duration) {
        emit(.stageFinished(stage, duration: engine.clock.now - started))
    }

    private func log(_ message: String) { emit(.log(message)) }

    private func connect() async throws(DFUError) -> DeviceConnection {
        log("connecting to \(device)")
        let emit = emit
        return try await DeviceConnection.open(
            engine.target.connector, peer: engine.target.peer, label: device,
            until: engine.clock.reachableBy(deadlines.connect), clock: engine.clock,
            session: SMPSession.Configuration(requestTimeout: deadlines.request), log: { emit(.log($0)) })
    }

    private func reader(_ connection: DeviceConnection) -> DeviceStateReader {
        let emit = emit
        return DeviceStateReader(connection: connection, device: device, requestTimeout: deadlines.request,
                                 log: { emit(.log($0)) }, warn: { emit(.warning($0)) })
    }

    private func negotiate(_ connection: DeviceConnection) async throws(DFUError) -> DeviceStateReader.Negotiated {
        try await reader(connection).negotiate()
    }

    private func versionCheck(_ connection: DeviceConnection, _ image: PreparedImage,
                              _ snapshot: DeviceSnapshot) -> VersionCheck {
        VersionCheck(connection: connection, image: image, mode: options.mode, previousHash: snapshot.facts.runningHash,
                     previousVersion: snapshot.facts.runningVersion, device: device,
                     requestTimeout: deadlines.request, emit: emit)
    }

    private func transfer(_ connection: DeviceConnection, _ image: PreparedImage, window: Int) async throws(DFUError) {
        let configuration = ImageUploadConfiguration(
            window: window, firstChunkTimeout: deadlines.firstChunk, chunkTimeout: deadlines.chunk,
            lastChunkTimeout: deadlines.lastChunk, linkRestoreTimeout: deadlines.connect)
        log("uploading \(image.bytes.count) bytes, \(window) request\(window == 1 ? "" : "s") in flight")
        try await ImageTransfer(connection: connection, image: image, configuration: configuration, clock: engine.clock,
                                device: device, reconnectAllowance: deadlines.connect, emit: emit).run()
    }

    /// The link went down after the upload ended (before anything marked the image): reconnect
    /// once; the image is on the device, so a failure here is resumable.
    private func reconnectBeforeActivation(_ connection: DeviceConnection) async throws(DFUError) {
        emit(.warning("the link to \(device) was lost after the upload; reconnecting"))
        let emit = emit
        let result = await connection.reconnect(until: engine.clock.reachableBy(deadlines.connect),
                                                log: { emit(.log($0)) })
        if case .failure(let failure) = result {
            throw .transferInterrupted("the link to \(device) was lost after the upload and could not be restored "
                                       + "(\(failure)). \(EngineFailure.rerunWithImageOnDevice)")
        }
    }

    /// What `.connected` and `.reconnected` say about `link`.
    private func summary(_ link: any Link, window: Int) -> ConnectionSummary {
        ConnectionSummary(link: link, device: device, window: window, flashRate: engine.target.flashRate)
    }
}
