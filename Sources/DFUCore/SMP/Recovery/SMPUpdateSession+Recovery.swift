import Transport

/// What a run through MCUboot's serial recovery learned on the way.
struct RecoveryProgress: Sendable {
    /// `--enter-recovery` reached the bootloader (so a second part does not reset it again).
    var entered = false
    /// How the bootloader vouched for the first image before its reset.
    var evidence: RecoveryPrimarySlotCheck.Evidence?
}

/// SMP through MCUboot's serial recovery (boot_serial.c): the bootloader takes each image straight
/// into its primary slot, so nothing is marked or confirmed; before the reset its image list must
/// show the image there (`RecoveryPrimarySlotCheck`), and after it the application is asked, if it
/// answers SMP on the port at all (`RecoveryApplicationCheck`).
extension SMPUpdateSession {
    /// `serial:PATH,recovery`: the bootloader's list, as `readState` returns it.
    func readRecoveryState(for update: inout SMPUpdate) async throws(DFUError) -> SessionState {
        let reader = SMPDeviceStateReader(connection: connection, context: context)
        let snapshot = try await reader.readRecoveryState(negotiated, image: update.main.index)
        try update.settleForRecovery(against: snapshot.images)
        return recoveryState(snapshot, update: update)
    }

    /// The state the preconditions see: the version and size checks are dfu's own (the
    /// bootloader has no `upgrade` rule), against what the primary slot holds now.
    func recoveryState(_ snapshot: SMPDeviceSnapshot, update: SMPUpdate) -> SessionState {
        var state = SessionState(facts: snapshot.facts, plan: update.plan)
        if update.hasSeveralImages {
            state.imageChecks = update.images.filter { $0.plan == .upload }.map { entry in
                Preconditions.ImageCheck(name: entry.name, version: entry.image.version, size: entry.image.bytes.count,
                                         runningVersion: snapshot.images.slot(0, image: entry.index)?.imageVersion,
                                         slotSize: snapshot.slotSizes[entry.index])
            }
        }
        return state
    }

    /// `--enter-recovery`, once: the reset into the bootloader, then the bootloader's own sizing.
    func enterRecovery() async throws(DFUError) {
        guard !recovery.withLock({ $0.entered }) else { return }
        try await SMPRecoveryEntry(connection: connection, context: context).run()
        let sized = try await SMPDeviceStateReader(connection: connection, context: context).negotiate()
        sizing.withLock { $0 = sized }
        recovery.withLock { $0.entered = true }
    }

    /// The bootloader's list must show each image in its primary slot (said as `.writtenByRecovery`),
    /// then the reset: MCUboot answers and restarts 250 ms later, booting the primary slot.
    func activateRecovery(_ update: SMPUpdate) async throws(DFUError) -> Int? {
        let listed: ImageStateResponse
        do throws(SMPClientError) {
            listed = try await connection.client.request(ImageStateReadRequest(), timeout: deadlines.request)
        } catch {
            throw SMPFailure.activation("the image list request after the upload", error, device: context.device)
        }
        var first: RecoveryPrimarySlotCheck.Evidence?
        for entry in update.images where !entry.isRunning {
            let evidence = try RecoveryPrimarySlotCheck(image: entry.image, imageIndex: entry.index, device: context.device)
                .evidence(in: listed)
            first = first ?? evidence
            context.emit(.writtenByRecovery(version: entry.image.version, hashChecked: evidence == .hash,
                                            image: update.hasSeveralImages ? entry.name : nil))
        }
        recovery.withLock { $0.evidence = first }
        return try await reset(with: activation(of: update.main, mode: .testConfirm))
    }

    /// After the reset: the application's image list when it answers SMP on this port (each image
    /// checked as after any update, and confirmed if it is not), else what was checked is said.
    func confirmAfterRecovery(_ update: SMPUpdate) async throws(DFUError) -> ImageVersion {
        let check = RecoveryApplicationCheck(connection: connection, context: context)
        if try await check.applicationList() != nil {
            return try await checkEach(update, mode: .testConfirm, readUntil: context.clock.reachableBy(deadlines.request))
        }
        let checked = recovery.withLock { $0.evidence } == .version ? "by its version" : "by its hash"
        let said = "MCUboot listed \(update.version) valid in the primary slot (\(checked)) before its reset"
        if let expected = context.options.expectedVersion {
            throw .postRebootCheckFailed("\(context.device) was reset, but its application does not answer SMP on this port, "
                                         + "so --expect-version \(expected) cannot be checked; \(said).")
        }
        context.warn("\(context.device)'s application does not answer SMP on this port (nothing within "
                     + "\(deadlines.connect) of the reset), so the version it runs was not read; \(said)")
        return update.version
    }

    /// In recovery the device is not asked after its reset the way an application is (the engine's
    /// reboot wait): `confirmAfterRecovery` finds out whether anything answers.
    var reachableAfterActivation: Bool { context.options.serialRecovery == nil }

    /// Nothing is marked in recovery, so `--mode` is not announced.
    var activationMarks: Bool { context.options.serialRecovery == nil }
}
