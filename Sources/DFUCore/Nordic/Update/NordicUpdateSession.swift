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

    /// One Control Point request at a time.
    var window: Int { 1 }
    private var device: String { context.device }
    private var deadlines: UpdateOptions.Deadlines { context.deadlines }

    /// The bootloader reports no versions over BLE (§2, BLE-transport caveat): what is known comes
    /// from the application's Device Information firmware revision. Read as a version (nrfutil's
    /// `M.m.p` for fw_version M·10000 + m·100 + p), it is the running version the downgrade check
    /// compares with the package's. An application that reports the expected version already runs
    /// the update.
    func readState(for update: inout NordicPreparedPackage) async throws(DFUError) -> SessionState {
        let revision = await StandardGATTReader(link: connection.link, log: context.log, warn: context.warn).firmwareRevision()
        var facts = DeviceFacts()
        facts.runningVersion = revision.flatMap { ImageVersion(parsing: $0) }
        if let expected = context.options.expectedVersion, let revision, revision == expected,
           !NordicGATT.isBootloader(connection.link.services) {
            return SessionState(facts: facts, plan: .alreadyRunning(confirmed: true))
        }
        return SessionState(facts: facts, plan: .upload, firstPart: await resumePoint(for: update))
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

    /// Buttonless entry when the device is the application (§1.2): indications on, the bootloader
    /// named (below), `01`, the answer (or the reset's drop), then the bootloader is reached where
    /// it advertises first: the address + 1 (the SDK's rule), the application's own address (a
    /// bootloader that keeps it: with bonds, or a Linux peripheral), or its name with the DFU
    /// service (a bootloader under an address of its own: an application with a resolvable private
    /// address). Every later reconnect to the bootloader looks in the same places.
    func enterUpdateMode(for update: NordicPreparedPackage) async throws(DFUError) {
        let link = connection.link
        if NordicGATT.isBootloader(link.services) { return }
        guard let buttonless = NordicGATT.buttonless(in: link.services) else {
            throw .deviceUnreachable("\(device) offers neither the DFU Control Point nor buttonless DFU",
                                     cause: .layoutMissing("no Nordic DFU Control Point or buttonless characteristic"))
        }
        let keepsAddress = buttonless.id == NordicDFUService.buttonlessWithBonds
        let application = connection.peer
        let bootloader = keepsAddress ? application : (BootloaderAddress.incremented(application) ?? application)
        var bootloaderPeers = bootloader == application ? [bootloader] : [bootloader, application]
        if !keepsAddress {
            bootloaderPeers.append(try await nameBootloader(through: buttonless.id))
        }
        context.log("asking \(device) to restart into its bootloader (buttonless DFU)")
        let lossesBefore = connection.lossesWhenAttached
        switch await connection.client.buttonless(NordicButtonless.enterBootloader, through: buttonless.id,
                                                  timeout: deadlines.request) {
        case .answered(.success), .linkLost:
            break
        case .answered(let status):
            throw .deviceRejected("\(device) refused to enter its bootloader: \(status)"
                                  + (status.rawValue == 0x07 ? ". Pair with it first (dfu pair)." : "."))
        case .writeFailed(let error):
            throw DFUError.connectFailed(device, error)
        case .timedOut:
            throw .deviceUnreachable("\(device) did not answer the buttonless DFU request within \(deadlines.request).",
                                     cause: .link(.timeout))
        }
        // The application resets after its answer; wait for that drop before looking for the bootloader.
        if await connection.losses.waitForLoss(beyond: lossesBefore, until: context.clock.reachableBy(deadlines.request)) == nil {
            await link.disconnect()
        }
        connection.retarget(to: bootloaderPeers, layout: NordicGATT.bootloader)
        let places = bootloaderPeers.map(BootloaderPeers.describe).joined(separator: ", ")
        context.log("looking for the bootloader at \(places)")
        let result = await connection.reconnect(until: context.clock.reachableBy(deadlines.connect), log: context.log)
        if case .failure(let failure) = result {
            if case .link(.ambiguous(_, let count)) = failure {
                throw .deviceUnreachable("\(device) restarted into its bootloader, but \(count) bootloaders in range "
                                         + "advertise as \(BootloaderPeers.defaultName) and dfu will not guess which is this one. "
                                         + "Its application cannot name its bootloader (buttonless set-name), so dfu can "
                                         + "only find it by the default name when it is the only one in range: move the "
                                         + "others away or power them off, then run again (it waits in DFU mode for 2 minutes).",
                                         cause: failure.cause)
            }
            throw .deviceUnreachable("\(device) restarted into its bootloader, but the bootloader was not found at "
                                     + "\(places) within \(deadlines.connect) (\(failure)). Retry: the device "
                                     + "waits in DFU mode for 2 minutes.", cause: failure.cause)
        }
        // The bootloader's link is another link (its own MTU): what rates are held against from now on.
        context.emit(.reconnected(ConnectionSummary(link: connection.link, device: device, window: window, flashRate: nil)))
    }

    /// The third place to look for the bootloader: by the name it is given now (buttonless set-name,
    /// `02`: `--bootloader-name`, or `Dfu` and five random digits as Nordic's iOS library does), or,
    /// when the application cannot set one, by the default `DfuTarg`, and then only as the one
    /// device in range with that name (two such bootloaders cannot be told apart: an error, never a
    /// guess).
    private func nameBootloader(through characteristic: CharacteristicID) async throws(DFUError) -> PeerIdentity {
        let given = context.options.bootloaderName
        let name = given ?? BootloaderPeers.randomName()
        switch try await setBootloaderName(name, through: characteristic, given: given != nil) {
        case .named:
            return BootloaderPeers.named(name)
        case .unsupported:
            return BootloaderPeers.soleDefault
        case .restarted:
            // The application reset instead of answering (firmware without the asynchronous SVCI,
            // §1.2): reach it again and enter without a name.
            context.warn("\(device) restarted when asked to name its bootloader (its firmware lacks buttonless "
                         + "set-name support); entering DFU without a name")
            context.log("reconnecting to \(device)")
            if case .failure(let failure) = await connection.reconnect(until: context.clock.reachableBy(deadlines.connect),
                                                                       log: context.log) {
                throw .deviceUnreachable("\(device) restarted when asked to name its bootloader and did not come back "
                                         + "within \(deadlines.connect) (\(failure)).", cause: failure.cause)
            }
            return BootloaderPeers.soleDefault
        }
    }

    /// What became of a set-name request.
    private enum NamingOutcome {
        case named, unsupported, restarted
    }

    /// Buttonless set-name (`02`, §1.2). An application that does not know the request (SDK 13
    /// answers "op code not supported") enters the bootloader under its default name, as Nordic's
    /// libraries then do. `given`: the user chose the name (`--bootloader-name`), so a device that
    /// cannot take it is an error rather than a fallback.
    private func setBootloaderName(_ name: String, through characteristic: CharacteristicID,
                                   given: Bool) async throws(DFUError) -> NamingOutcome {
        guard let request = NordicButtonless.setName(name) else {
            throw .usage("--bootloader-name must be 1 to 20 bytes of UTF-8, not \(name.utf8.count)")
        }
        let lossesBefore = connection.lossesWhenAttached
        switch await connection.client.buttonless(request, through: characteristic, timeout: deadlines.request) {
        case .answered(.success):
            context.log("the bootloader will advertise as \(name)")
            return .named
        case .answered(let status) where status.rawValue == 0x02:
            if given { context.warn("\(device) cannot rename its bootloader (\(status)); it keeps its default name") }
            else { context.log("\(device) cannot name its bootloader (\(status)); it keeps its default name") }
            return .unsupported
        case .answered(let status) where given:
            throw .deviceRejected("\(device) refused the bootloader name \(name): \(status)")
        case .answered(let status):
            // The name is dfu's own aid, not the user's request: go on without it.
            context.log("\(device) refused to name its bootloader (\(status)); it keeps its default name")
            return .unsupported
        case .writeFailed(.rejected(_, let error)) where !given:
            context.log("\(device) refused to name its bootloader (\(error)); it keeps its default name")
            return .unsupported
        case .linkLost where given:
            // An application without the asynchronous SVCI resets instead of answering (§1.2).
            throw .deviceRejected("\(device) dropped the link when asked to rename its bootloader; its firmware may not "
                                  + "support it (run again without --bootloader-name)")
        case .linkLost:
            _ = await connection.losses.waitForLoss(beyond: lossesBefore, until: context.clock.reachableBy(deadlines.request))
            return .restarted
        case .writeFailed(let error):
            throw DFUError.connectFailed(device, error)
        case .timedOut:
            throw .deviceUnreachable("\(device) did not answer the bootloader name request within \(deadlines.request).",
                                     cause: .link(.timeout))
        }
    }

    /// Packets the bootloader lost, or got in another order (its checksum said so), cost time: say
    /// so, with the usual cause on Linux, several ATT bearers (reference bluez-dbus.md §8).
    private func warnAboutRecoveries() async {
        guard let statistics = await connection.client.lastStatistics else { return }
        let recoveries = statistics.lossesDetected + statistics.crcMismatches + statistics.objectOverflows
        guard recoveries > 0 else { return }
        context.warn("the bootloader's checksums showed packets lost or out of order \(recoveries) time(s); dfu sent them "
                     + "again, more slowly. With BlueZ, several ATT bearers (EATT) reorder writes: Channels=1 in the "
                     + "[GATT] section of /etc/bluetooth/main.conf avoids it (docs/bluez.md)")
    }

    /// One part: its init packet, then its firmware. A system part the bootloader declines as not
    /// newer is skipped (`NordicFailure.declinedAsInstalled`); the application follows on this link.
    func transfer(_ update: NordicPreparedPackage, part: UpdatePart,
                  progress: @escaping @Sendable (TransferCount) -> Void) async throws(DFUError) -> PartTransfer {
        guard let image = update.image(for: part) else { throw .internalError("no image for \(part.label) in the package") }
        let configuration = NordicTransferConfiguration(
            packetSize: NordicTransferConfiguration.packetSize(attMTU: connection.link.parameters.attMTU),
            packetReceiptNotification: context.options.packetReceiptNotification,
            responseTimeout: deadlines.request, receiptTimeout: Self.receiptTimeout(connection.link),
            linkRestoreTimeout: deadlines.connect)
        context.log("sending the init packet (\(image.initPacket.bytes.count) bytes) and \(image.firmware.count) bytes of "
                    + "\(image.kind), PRN \(configuration.packetReceiptNotification)")
        // The core announces 0 before the bootloader has said where it is; the first count shown is
        // the bootloader's (where a resumed transfer continues).
        let leading = Locked(true)
        do throws(NordicTransferError) {
            let completion = try await connection.client.transfer(
                initPacket: image.initPacket.bytes, firmware: image.firmware, configuration: configuration) { step in
                    if step.acknowledged == 0, leading.withLock({ $0 }) { return }
                    leading.withLock { $0 = false }
                    progress(TransferCount(acknowledged: Int(clamping: step.acknowledged), total: Int(clamping: step.total)))
                }
            if completion == .unconfirmed {
                context.log("the link dropped while the final Execute was outstanding; the new version decides")
            }
            await warnAboutRecoveries()
            return .sent
        } catch {
            if !part.isLast, let remote = NordicFailure.declinedAsInstalled(error) {
                return .skipped("\(device) declined \(part.label) as not newer than what it runs (\(remote)); "
                                + "skipping to the application")
            }
            throw NordicFailure.transfer(error)
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
    func activate(_ update: NordicPreparedPackage, mode: ActivationMode, losses: LinkLossMonitor) async throws(DFUError) -> Int {
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

    func probe(timeout: Duration) async -> ProbeResult { .answered }

    /// The new application's Device Information firmware revision, checked against
    /// `--expect-version` when given (the init packet's fw_version is an integer an application
    /// need not report, §6 of the issue).
    func confirm(_ update: NordicPreparedPackage, mode: ActivationMode, before: SessionState,
                 readUntil: ContinuousClock.Instant) async throws(DFUError) -> ImageVersion {
        let revision = await StandardGATTReader(link: connection.link, log: context.log, warn: context.warn).firmwareRevision()
        if let expected = context.options.expectedVersion {
            guard let revision else {
                throw .postRebootCheckFailed("\(device) came back but reports no firmware revision (Device Information), "
                                             + "so --expect-version \(expected) cannot be checked.")
            }
            guard revision == expected else {
                throw .postRebootCheckFailed("\(device) came back reporting firmware \(revision), not \(expected): the "
                                             + "bootloader did not start the new application, or it reports another version.")
            }
        }
        let version = revision.flatMap { ImageVersion(parsing: $0) } ?? update.version
        context.emit(.versionConfirmed(version: version, confirmed: true))
        return version
    }
}
