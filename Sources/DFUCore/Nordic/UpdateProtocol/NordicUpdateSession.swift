import Transport

/// Nordic Secure DFU on one device for the rest of a run (nordic-secure-dfu.md §3): an application
/// found first is switched into its bootloader by buttonless entry (the bootloader then answers at
/// the address + 1 without carry, or at the same address when it keeps bonds); the bootloader takes
/// the init packet and the firmware (`NordicSession` and its core); after the final Execute it
/// validates, resets and starts the new application, which is found again at the application's
/// address and asked for its Device Information firmware revision.
struct NordicUpdateSession: UpdateSession {
    let connection: DeviceConnection<NordicSession>
    let context: SessionContext
    /// Where the application answers after the update (where it was found; or, when the device was
    /// found in its bootloader, where its application would be).
    let applicationPeers: [PeerIdentity]
    /// The numbers of the parts the bootloader declined as not newer (skipped): not activated.
    let declinedParts: Locked<Set<Int>>
    /// Whether the last part's final Execute went unanswered (the link went first): whether the
    /// bootloader activated the update is then known only from what the application reports.
    let finalExecuteUnanswered = Locked(false)

    /// One Control Point request at a time.
    var window: Int { 1 }
    var device: String { context.device }
    var deadlines: UpdateOptions.Deadlines { context.deadlines }

    /// The bootloader reports no versions over BLE (§2, BLE-transport caveat): what is known comes
    /// from the application's Device Information firmware revision. Read as a version (nrfutil's
    /// `M.m.p` for fw_version M·10000 + m·100 + p), it is the running version the downgrade check
    /// compares with the package's application (a package of a system part alone is not compared:
    /// the bootloader checks a system part's version itself). An application that reports the
    /// expected version already runs the update.
    func readState(for update: inout NordicPreparedPackage) async throws(DFUError) -> SessionState {
        let revision = await StandardGATTReader(link: connection.link, log: context.log, warn: context.warn).firmwareRevision()
        let reading = revision.flatMap { ImageVersion(parsing: $0) }
        var facts = DeviceFacts()
        facts.runningVersionText = revision
        if let expected = context.options.expectedVersion, let revision, revision == expected,
           !NordicGATT.isBootloader(connection.link.services) {
            return SessionState(facts: facts, plan: .alreadyRunning(confirmed: true))
        }
        if let revision, let application = update.application,
           wasUpdatedByEarlierRun(to: application, revision: reading, stated: revision) {
            return SessionState(facts: facts, plan: .alreadyRunning(confirmed: true))
        }
        var state = SessionState(facts: facts, plan: .upload, firstPart: await resumePoint(for: update))
        if let application = update.application {
            state.facts.runningVersion = reading
            let value = reading.flatMap(NordicPreparedPackage.nrfutilValue)
            let running = revision.map { "firmware revision \($0)" + (value.map { " (fw_version \($0))" } ?? "") }
            state.imageChecks = [Preconditions.ImageCheck(version: update.version, size: update.size, runningVersion: reading,
                                                          slotSize: nil, versionText: NordicPreparedPackage.words(application),
                                                          runningVersionText: running)]
        } else {
            state.imageChecks = []
        }
        return state
    }

    /// An earlier run of this same package was cut off (its journal is unfinished) after the device
    /// stated `earlierVersionBefore`, and the application now states the package's version instead:
    /// that run's last Execute went in and the bootloader activated the update (the host died, or
    /// the link went, before the answer). Sending it again would be refused as not newer; there is
    /// nothing left to do but read the version, as after an activation. A device that still states
    /// its old version, or any other, is updated as usual.
    private func wasUpdatedByEarlierRun(to application: NordicPackage.Image, revision reading: ImageVersion?,
                                        stated revision: String) -> Bool {
        guard let before = context.options.earlierVersionBefore, revision != before,
              !NordicGATT.isBootloader(connection.link.services), let reading,
              let value = NordicPreparedPackage.nrfutilValue(of: reading),
              value == application.initPacket.initCommand.fwVersion else { return false }
        context.log("an earlier run of this update was cut off; the application now reports firmware revision \(revision) "
                    + "(\(before) before it): the bootloader activated \(NordicPreparedPackage.words(application))")
        return true
    }

    /// A bootloader found in DFU mode with a package of several parts: the part whose init packet
    /// it holds (an earlier run sent the parts before it), by its Select(command) answer.
    private func resumePoint(for update: NordicPreparedPackage) async -> Int {
        guard update.parts.count > 1, NordicGATT.isBootloader(connection.link.services) else { return 0 }
        guard case .answered(let response) = await connection.client.request(.select(.command), timeout: deadlines.request),
              case .success(.objectInfo(let held)) = response.outcome else { return 0 }
        let part = NordicResumePoint.part(of: update.package.images, holding: held)
        guard part > 0, update.parts.indices.contains(part) else { return 0 }
        context.log("the bootloader holds \(held.offset) bytes of the init packet of \(update.parts[part].label)")
        return part
    }

    /// Packets the bootloader lost, or got in another order (its checksum said so), cost time: say
    /// so, with the usual cause on Linux, several ATT bearers (reference bluez-dbus.md §8). Receipts
    /// that came late cost nothing but the wait: the log says so.
    private func warnAboutRecoveries() async {
        guard let statistics = await connection.client.lastStatistics else { return }
        if statistics.latePRNs > 0 {
            // Not a fault: the checksum asked for instead said where the bootloader was.
            context.log("\(statistics.latePRNs) packet receipt(s) came after dfu had stopped waiting and asked for the checksum")
        }
        let recoveries = statistics.lossesDetected + statistics.crcMismatches + statistics.objectOverflows
        guard recoveries > 0 else { return }
        if Self.isSerial(connection.link) {
            context.warn("the bootloader's checksums showed Write Objects lost \(recoveries) time(s); dfu sent them again, "
                         + "more slowly. On a UART its receive buffer overflows while it writes flash: use hardware flow "
                         + "control (serial:PATH,rtscts) if the bootloader has it, or a lower baud rate (docs/nordic-serial.md)")
            return
        }
        context.warn("the bootloader's checksums showed packets lost or out of order \(recoveries) time(s); dfu sent them "
                     + "again, more slowly. With BlueZ, several ATT bearers (EATT) reorder writes: Channels=1 in the "
                     + "[GATT] section of /etc/bluetooth/main.conf avoids it (docs/bluez.md)")
    }

    /// One part: its init packet, then its firmware. A system part the bootloader declines as not
    /// newer is skipped (`NordicFailure.declinedAsInstalled`); the application follows on this link.
    func transfer(_ update: NordicPreparedPackage, part: UpdatePart,
                  progress: @escaping @Sendable (AcknowledgedProgress) -> Void) async throws(DFUError) -> PartTransfer {
        guard let image = update.image(for: part) else { throw .internalError("no image for \(part.label) in the package") }
        let configuration = NordicTransferConfiguration(
            packetSize: NordicTransferConfiguration.packetSize(attMTU: connection.link.parameters.attMTU),
            packetReceiptNotification: context.options.packetReceiptNotification,
            responseTimeout: deadlines.request, receiptTimeout: Self.receiptTimeout(connection.link),
            linkRestoreTimeout: deadlines.connect)
        context.log("sending the init packet (\(image.initPacket.bytes.count) bytes) and \(image.firmware.count) bytes of "
                    + "\(image.kind), PRN \(configuration.packetReceiptNotification)")
        do throws(NordicTransferError) {
            let completion = try await connection.client.transfer(
                initPacket: image.initPacket.bytes, firmware: image.firmware, configuration: configuration,
                progress: progress)
            if completion == .unconfirmed {
                context.log("the link dropped while the final Execute was outstanding; the new version decides")
                if part.isLast { finalExecuteUnanswered.withLock { $0 = true } }
            }
            await warnAboutRecoveries()
            return .sent
        } catch {
            if !part.isLast, let remote = NordicFailure.declinedAsInstalled(error) {
                declinedParts.withLock { _ = $0.insert(part.number) }
                return .skipped("\(device) declined \(part.label) as not newer than what it runs (\(remote)); "
                                + "skipping to the application")
            }
            throw NordicFailure.transfer(error, image: image)
        }
    }

    /// A PRN comes within a few connection events of the packet it answers: eight intervals, at
    /// least half a second; 2 s where the link does not say its interval (BlueZ).
    static func receiptTimeout(_ link: any Link) -> Duration {
        guard let interval = link.parameters.connectionInterval else { return .seconds(2) }
        return max(.milliseconds(500), interval * 8)
    }

    func abandonTransfer() async {
        await connection.client.close()
    }

    func resetIsDue() async -> Bool {
        await connection.client.resetIsDue
    }

    /// The final Execute was the activation: nothing more is sent.
    var activationNeedsLink: Bool { false }

    /// The bootloader validates, resets and starts the new application, at the application's
    /// address: the reconnect goes there.
    func activate(_ update: NordicPreparedPackage, mode: ActivationMode, losses: LinkLossMonitor) async throws(DFUError) -> Int? {
        connection.retarget(to: applicationPeers, layout: NordicGATT.application)
        return connection.lossesWhenAttached
    }

    /// After a system part the bootloader resets and activates it. The nRF5 SDK bootloader
    /// (SDK 15 `nrf_bootloader.c` `nrf_bootloader_init`, `nrf_bootloader_fw_activation.c`) stays in
    /// DFU mode after a SoftDevice (or SoftDevice + bootloader) to take the application, advertising
    /// as before (address + 1 without bonds, its name from the settings page), for
    /// `NRF_BL_DFU_CONTINUATION_TIMEOUT_MS`; after a bootloader alone it starts the application
    /// that is still valid, which the next part switches into DFU mode again (buttonless). So the
    /// reconnect looks for either, where each answers, the one expected first (a connector tries
    /// several addresses in turns).
    func partActivated(_ update: NordicPreparedPackage, part: UpdatePart) async throws(DFUError) -> Int? {
        let bootloaderComesBack = update.image(for: part)?.kind != .bootloader
        let expected = bootloaderComesBack ? [connection.peer] : applicationPeers
        let other = bootloaderComesBack ? applicationPeers : [connection.peer]
        var peers: [PeerIdentity] = []
        for peer in expected + other where !peers.contains(peer) { peers.append(peer) }
        connection.retarget(to: peers, layout: NordicGATT.bootloaderOrButtonless)
        return connection.lossesWhenAttached
    }

    /// Over a serial port (no connection to lose) the bootloader is up while it answers a ping;
    /// over Bluetooth the link reports the reset, so there is nothing to probe.
    func probe(timeout: Duration) async -> ProbeResult {
        guard let serial = connection.link as? NordicSerialLink else { return .answered }
        switch await serial.ping(timeout: timeout) {
        case .answered: return .answered
        case .silent: return .silent
        case .gone: return .gone
        }
    }

    /// Over a serial port only the bootloader speaks: the application it starts after the update
    /// has no DFU face there (pc-nrfutil ends at the final Execute too).
    var reachableAfterActivation: Bool { !Self.isSerial(connection.link) }

    static func isSerial(_ link: any Link) -> Bool { link is NordicSerialLink }

    /// Over a serial port the bootloader's answer to the final Execute is the only sign that it
    /// activated the update: the application it starts says nothing on the line. A USB port that
    /// vanished before that answer leaves it unknown (the device may have lost power as the
    /// Execute arrived, and then starts its old application): resumable, as over a UART, where the
    /// Execute's deadline ends the run (faults: `serial-nordic-usb-power-cycle-at-activation`).
    private func checkActivatedOverSerial(words: String) throws(DFUError) {
        guard finalExecuteUnanswered.withLock({ $0 }) else { return }
        throw .transferInterrupted("the port of \(device) went away before its bootloader answered the final Execute, and "
                                   + "the application it starts does not answer on the port: nothing shows that it "
                                   + "activated \(words). Put the device back into DFU mode and run the same command "
                                   + "again to finish the update.")
    }

    /// The new application's Device Information firmware revision, checked against
    /// `--expect-version` when given (the init packet's fw_version is an integer an application
    /// need not report, §6 of the issue). Said in Nordic's words: what the bootloader activated, as
    /// the package names it, and the revision as the application reports it; nothing is confirmed.
    /// The final Execute unanswered and the application back with the firmware revision it
    /// reported before the update: nothing shows the bootloader activated it. It answers and resets
    /// at once, so the answer may be lost with the link (then the new application reports its own
    /// revision); but a device that lost power as the Execute arrived never executed the last
    /// object and starts its old application. Resumable: the same command finishes it. Not
    /// checked with `--expect-version` (which decides, above) or without a revision to compare.
    private func checkActivated(_ update: NordicPreparedPackage, words: String, revision: String?,
                                before: SessionState) throws(DFUError) {
        guard context.options.expectedVersion == nil, update.application != nil,
              finalExecuteUnanswered.withLock({ $0 }), let revision, revision == before.facts.runningVersionText else { return }
        throw .transferInterrupted("\(device) came back reporting firmware revision \(revision), as before the update, and "
                                   + "the bootloader never answered the final Execute (the link went first): nothing shows "
                                   + "that it activated \(words). \(EngineFailure.rerun) (--expect-version names the "
                                   + "revision the new application reports, to check it instead.)")
    }

    func confirm(_ update: NordicPreparedPackage, mode: ActivationMode, before: SessionState,
                 readUntil: ContinuousClock.Instant) async throws(DFUError) -> ImageVersion {
        let activated = before.plan != .alreadyRunning(confirmed: true)
        let words = activated ? update.words(skipping: declinedParts.withLock { $0 }) : update.summary.versionText
        if !reachableAfterActivation, activated {
            try checkActivatedOverSerial(words: words)
            context.log("the bootloader validated the new firmware and starts it; its application does not answer on "
                        + "the serial port, so nothing more is read")
        }
        let revision = await StandardGATTReader(link: connection.link, log: context.log, warn: context.warn).firmwareRevision()
        if let expected = context.options.expectedVersion {
            guard let revision else {
                throw .postRebootCheckFailed("\(device) came back but reports no firmware revision (Device Information), "
                                             + "so --expect-version \(expected) cannot be checked.")
            }
            guard revision == expected else {
                throw .postRebootCheckFailed("\(device) came back reporting firmware revision \(revision), not \(expected) "
                                             + "(--expect-version): the bootloader did not start the new application, or it "
                                             + "reports another version.")
            }
        }
        try checkActivated(update, words: words, revision: revision, before: before)
        context.emit(.firmwareReported(update: words, firmwareRevision: revision, activated: activated))
        return update.version
    }
}
