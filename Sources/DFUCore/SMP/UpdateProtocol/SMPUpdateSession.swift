import Transport

/// SMP on one device for the rest of a run: the image list and slot facts, the upload of each
/// image to its index, marking them and the one reset, and the check after the reboot. Each stage's
/// details are in its own type (`SMPDeviceStateReader`, `SMPTransfer`, `SMPActivation`,
/// `SMPVersionCheck`). In MCUboot's serial recovery the bootloader takes the images instead
/// (`SMPUpdateSession+Recovery.swift`).
struct SMPUpdateSession: UpdateSession {
    let connection: DeviceConnection<SMPSession>
    let context: SessionContext
    /// What the connect stage negotiated; replaced once `--enter-recovery` reaches the bootloader,
    /// whose buffers are its own.
    let sizing: Locked<SMPDeviceStateReader.Negotiated>
    /// What serial recovery learned on the way (`RecoveryProgress`).
    let recovery = Locked(RecoveryProgress())

    init(connection: DeviceConnection<SMPSession>, context: SessionContext, negotiated: SMPDeviceStateReader.Negotiated) {
        self.connection = connection
        self.context = context
        sizing = Locked(negotiated)
    }

    var negotiated: SMPDeviceStateReader.Negotiated { sizing.withLock { $0 } }
    var window: Int { negotiated.window }
    private var session: SMPSession { connection.client }
    var deadlines: UpdateOptions.Deadlines { context.deadlines }

    func readState(for update: inout SMPUpdate) async throws(DFUError) -> SessionState {
        if context.options.serialRecovery == .inRecovery { return try await readRecoveryState(for: &update) }
        let reader = SMPDeviceStateReader(connection: connection, context: context)
        let snapshot = try await reader.readImageState(negotiated, image: update.main.index)
        if snapshot.facts.unsupported == nil { try checkImageIndexes(of: update, snapshot) }
        try update.settle(against: snapshot.images, mode: snapshot.bootloaderMode)
        update.bootloaderMode = snapshot.bootloaderMode
        if context.options.serialRecovery != nil {
            // The application is asked now; MCUboot's recovery takes the images unless they all run.
            if case .alreadyRunning = update.plan {} else { try update.settleForRecovery(against: snapshot.images) }
            return recoveryState(snapshot, update: update)
        }
        var state = SessionState(facts: snapshot.facts, plan: update.plan)
        if update.hasSeveralImages {
            state.imageChecks = update.images.filter { $0.plan == .upload }.map { entry in
                Preconditions.ImageCheck(name: entry.name, version: entry.image.version, size: entry.image.bytes.count,
                                         runningVersion: snapshot.images.running(image: entry.index)?.imageVersion,
                                         slotSize: snapshot.slotSizes[entry.index])
            }
        }
        let madePermanent = update.images.filter { !$0.isRunning && context.options.mode.forImage($0.index) != context.options.mode }
        if update.hasSeveralImages, !madePermanent.isEmpty {
            context.warn("\(madePermanent.map(\.name.description).joined(separator: ", ")) will be made permanent before "
                         + "the reset (confirm-only, no revert): Zephyr does not confirm the running image of an index "
                         + "other than 0 after the reboot")
        }
        if let mode = snapshot.bootloaderMode, !mode.supportsRevert {
            state.revertWarning = "the bootloader runs in \(mode) mode, which cannot roll back: the test boot makes the image permanent"
        }
        return state
    }

    /// An image index the device does not have is refused before anything is sent. `--image N`
    /// is held to the image list; a zip's images to slot info when the device answers it (an
    /// nRF5340's network core need not list a slot: its image is copied into that core).
    private func checkImageIndexes(of update: SMPUpdate, _ snapshot: SMPDeviceSnapshot) throws(DFUError) {
        let listed = Set(snapshot.images.images.map { $0.image ?? 0 })
        for entry in update.images where entry.index > 0 {
            let known: Bool
            if update.hasSeveralImages {
                known = snapshot.slotInfoIndexes?.contains(entry.index) ?? true // no slot info: the upload decides
            } else {
                known = listed.contains(entry.index)
            }
            guard !known else { continue }
            let source = update.hasSeveralImages ? "the zip has \(entry.name)" : "check --image against 'dfu info'"
            throw .deviceRejected("\(context.device) lists no image \(entry.index) (its image list has "
                                  + "\(listed.count) image index(es)); \(source).")
        }
    }

    /// SMP's application takes the upload itself; with `--enter-recovery` it resets into MCUboot's
    /// serial recovery first (`enterRecovery`).
    func enterUpdateMode(for update: SMPUpdate) async throws(DFUError) {
        if context.options.serialRecovery == .enterFromApplication { try await enterRecovery() }
    }

    /// One image to its index; one the device already runs or holds is not sent again.
    func transfer(_ update: SMPUpdate, part: UpdatePart,
                  progress: @escaping @Sendable (AcknowledgedProgress) -> Void) async throws(DFUError) -> PartTransfer {
        let entry = try image(of: update, for: part)
        switch entry.plan {
        case .alreadyRunning:
            return .skipped("\(context.device) already runs \(entry.name) \(entry.image.version); not sending it")
        case .alreadyUploaded:
            return .skipped("\(context.device) already holds \(entry.name) \(entry.image.version) in its free slot "
                            + "(an earlier run uploaded it); not sending it again")
        case .upload:
            break
        }
        let bytes = entry.image.bytes.count
        let recovering = context.options.serialRecovery != nil
        var configuration = ImageUploadConfiguration(
            window: window, firstChunkTimeout: deadlines.firstChunk(forImageOf: bytes),
            chunkTimeout: deadlines.chunk,
            lastChunkTimeout: deadlines.lastChunk, linkRestoreTimeout: deadlines.connect)
        // Silence is the only sign of trouble where the link cannot report its loss: re-synchronise
        // within the time a reconnect would get.
        if connection.link.parameters.isConnectionless { configuration.resyncAfterSilence = deadlines.connect }
        // A loss counted before the upload (after the device's state was read) was restored by the
        // engine (`UpdateProcedure.restoreLinkIfLost`); the transfer stage handles those during it.
        context.log("uploading \(update.hasSeveralImages ? "\(entry.name), " : "")\(bytes) bytes, "
                    + "\(window) request\(window == 1 ? "" : "s") in flight"
                    + (recovering ? ", into the primary slot (MCUboot serial recovery)" : ""))
        // A zip names every index it sends; a single image only the one the user gave (`--image`).
        let number: UInt64? = update.hasSeveralImages ? entry.index : context.options.imageIndex
        // MCUboot's recovery has no `upgrade` field (dfu's own version check stands) and no slot 1
        // to look in after a lost link.
        try await SMPTransfer(session: session, image: entry.image, imageNumber: number,
                              upgradeOnly: recovering ? false : context.options.requireNewer,
                              configuration: configuration, checksSecondarySlot: !recovering).run(progress: progress)
        return .sent
    }

    /// MCUboot takes every image before the one reset that installs them together.
    func partActivated(_ update: SMPUpdate, part: UpdatePart) async throws(DFUError) -> Int? { nil }

    func abandonTransfer() async {
        await session.close()
    }

    /// Mark and reset are requests.
    var activationNeedsLink: Bool { true }

    /// Marks each image the device does not already run (in the mode its index allows), then one
    /// reset. A link lost under a mark is restored and the image list read again (`SMPActivation`).
    /// nil: the device restarted into the update by itself after the last mark (no reset is sent:
    /// it would end the test boot).
    func activate(_ update: SMPUpdate, mode: ActivationMode, losses: LinkLossMonitor) async throws(DFUError) -> Int? {
        if context.options.serialRecovery != nil { return try await activateRecovery(update) }
        var activation: SMPActivation?
        var restarted = false
        // Direct-XIP without revert boots the newest image for good: Zephyr refuses a test of it
        // (IMAGE_ALREADY_PENDING, img_mgmt_set_next_boot_slot), so nothing is marked.
        let marks = update.bootloaderMode != .directXIP
        if !marks { context.log("direct-XIP without revert: MCUboot boots the newest image; nothing to mark") }
        for entry in update.images where !entry.isRunning {
            var marking = self.activation(of: entry, mode: mode)
            marking.acceptsAlreadyPending = update.bootloaderMode == .ramLoad
            // A restart after an earlier image's mark still leaves this one to mark and reset.
            if marks { restarted = try await marking.mark() == .restarted }
            activation = marking
        }
        guard let activation else {
            throw .internalError("activating an update whose every image already runs")
        }
        if restarted { return nil }
        return try await reset(with: activation)
    }

    /// Marking and resetting `entry` in the mode its index allows.
    func activation(of entry: SMPUpdateImage, mode: ActivationMode) -> SMPActivation {
        var activation = SMPActivation(session: session, image: entry.image, imageIndex: entry.index,
                                       mode: mode.forImage(entry.index), device: context.device,
                                       requestTimeout: deadlines.request, log: context.log) { request async throws(DFUError) in
            try await restoreLink(lostBefore: request, stage: .activate)
        }
        activation.warn = context.warn
        return activation
    }

    /// The reset, on a live link: one lost since the marks is restored first. Returns the link
    /// losses the reboot wait counts from: those before the link the reset goes out on, whose loss
    /// is the reboot's (or, if the reset was lost with it, shows after the reconnect as a device
    /// that has not reset: `SMPVersionCheck.Outcome.awaitingReset`). nil: on the restored link
    /// the device already runs the new image (it restarted by itself after answering the mark),
    /// so no reset is sent: during a test boot it would make MCUboot revert the image.
    func reset(with activation: SMPActivation) async throws(DFUError) -> Int? {
        if await connection.isLinkLost {
            try await restoreLink(lostBefore: "the reset request", stage: .activate)
            // MCUboot's serial recovery lists the primary slot it wrote, which boots only after the reset.
            if context.options.serialRecovery == nil, await activation.runsNewImage() {
                context.warn("\(context.device) restarted by itself after it took the mark: it already runs the new image, "
                             + "so it is not reset again")
                return nil
            }
        }
        let lossesBefore = connection.lossesWhenAttached
        try await activation.reset()
        return lossesBefore
    }

    func probe(timeout: Duration) async -> ProbeResult {
        do throws(SMPClientError) {
            _ = try await session.request(OSEchoRequest(text: "dfu"), timeout: min(timeout, deadlines.request), attempts: 1)
            return .answered
        } catch {
            switch error {
            case .timeout: return .silent
            case .linkLost, .closed: return .gone
            case .refused: return .answered // an error answer is still an answer: the device is up
            default: return .failed(SMPFailure.afterReboot("the echo request", error, device: context.device))
            }
        }
    }

    /// Every image checked (and confirmed as its index's mode asks); the first image's last, whose
    /// version is the run's result. Each check goes on across link losses and a reset the device
    /// did not take (`checking`).
    func confirm(_ update: SMPUpdate, mode: ActivationMode, before: SessionState,
                 readUntil: ContinuousClock.Instant) async throws(DFUError) -> ImageVersion {
        if context.options.serialRecovery != nil, before.plan == .upload {
            return try await confirmAfterRecovery(update)
        }
        return try await checkEach(update, mode: mode, readUntil: readUntil)
    }

    /// Each image's check after the reboot, the first image's last (its version is the result).
    func checkEach(_ update: SMPUpdate, mode: ActivationMode,
                   readUntil: ContinuousClock.Instant) async throws(DFUError) -> ImageVersion {
        var version = update.version
        var readUntil = readUntil
        for entry in update.images.dropFirst() + [update.main] {
            let check = SMPVersionCheck(
                session: session, clock: context.clock, image: entry.image, mode: mode.forImage(entry.index),
                imageIndex: entry.index, name: update.hasSeveralImages ? entry.name : nil,
                previousHash: entry.runningBefore?.hash, previousVersion: entry.runningBefore?.imageVersion,
                mayBeUnlisted: update.hasSeveralImages && entry.index > 0,
                runsFromEitherSlot: entry.isDirectXIP || update.bootloaderMode.map(Self.equalSlotModes.contains) == true,
                device: context.device, requestTimeout: deadlines.request, emit: context.emit, warn: context.warn,
                expected: entry.index == update.main.index ? update.expected : nil)
            version = try await checking(check, resetting: activation(of: entry, mode: mode), readUntil: &readUntil)
        }
        return version
    }

    /// Bootloader modes that run an image from either slot (direct-XIP, RAM load).
    private static let equalSlotModes: Set<MCUbootMode> = [.directXIP, .directXIPWithRevert, .ramLoad]

    private func image(of update: SMPUpdate, for part: UpdatePart) throws(DFUError) -> SMPUpdateImage {
        guard update.images.indices.contains(part.number - 1) else {
            throw .internalError("\(part.label) is not an image of this update")
        }
        return update.images[part.number - 1]
    }
}
