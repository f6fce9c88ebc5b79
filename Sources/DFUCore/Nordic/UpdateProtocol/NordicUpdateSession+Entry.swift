import Transport

/// Nordic's enter-update-mode step (nordic-secure-dfu.md §1.2, §1.3): buttonless entry from the
/// application, the bootloader named first, and where the bootloader is looked for afterwards.
extension NordicUpdateSession {
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
        switch try await sendButtonless(NordicButtonless.enterBootloader, through: buttonless.id) {
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
        context.emit(.reconnected(ConnectionSummary(link: connection.link, device: device, identity: context.identity,
                                                    window: window, flashRate: nil)))
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

    /// A buttonless request. A link that went before the request could go out (while the device's
    /// state was read: its loss may be reported only now) is made again, once, and the request
    /// sent on the new one.
    private func sendButtonless(_ request: [UInt8], through characteristic: CharacteristicID)
        async throws(DFUError) -> NordicButtonlessOutcome {
        let outcome = await connection.client.buttonless(request, through: characteristic, timeout: deadlines.request)
        guard case .writeFailed(.disconnected(let reason)) = outcome else { return outcome }
        context.warn("the link to \(device) was lost (\(reason)); reconnecting")
        if case .failure(let failure) = await connection.reconnect(until: context.clock.reachableBy(deadlines.connect),
                                                                   log: context.log) {
            throw .deviceUnreachable("the link to \(device) was lost before the update and it did not come back within "
                                     + "\(deadlines.connect) (\(failure)). \(EngineFailure.rerun)", cause: failure.cause)
        }
        return await connection.client.buttonless(request, through: characteristic, timeout: deadlines.request)
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
        switch try await sendButtonless(request, through: characteristic) {
        case .answered(.success):
            context.log("the bootloader will advertise as \(name)")
            context.emit(.bootloaderNamed(name))
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
}
