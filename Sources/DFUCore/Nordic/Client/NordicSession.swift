import Transport

/// The thin async driver between a `Link` and `NordicTransferCore`: it feeds Control Point
/// notifications to the core and carries out its actions — Control Point writes (Write Request)
/// and packet batches (Write Without Response, whose suspension is the flow control) in one
/// ordered queue, the one timer, progress. Every protocol decision is the core's; the link, its
/// generations and losses, and the timer are the shared `LinkDriver`'s. Beside the transfer it
/// sends the buttonless requests and single Control Point requests, and decides an ATT-rejected
/// write by the link's state `linkVerdictDelay` later.
///
/// After a link is lost the engine's connection reconnects and hands the new link to `attach(_:)`;
/// the core then resumes with Select (the device's answer is the truth). A link without the Control
/// Point (the application after the update) is served only for its losses.
public actor NordicSession {
    /// Yields each time the served link goes down. One consumer.
    public nonisolated let linkLosses: AsyncStream<DisconnectReason>

    /// What goes out through the one ordered queue.
    private enum Write: Sendable {
        case controlPoint([UInt8])
        case packets([[UInt8]])
    }

    private struct Transfer {
        var core: NordicTransferCore
        let progress: @Sendable (AcknowledgedProgress) -> Void
        let finish: CheckedContinuation<Result<NordicTransferCompletion, NordicTransferError>, Never>
    }

    /// The link, its writes, losses and the timer.
    private var driver: LinkDriver<Write>
    private var transfer: Transfer?
    /// Waiting for the buttonless characteristic's answer (or the link to drop, which a device that
    /// resets fast does first).
    private var buttonless: (characteristic: CharacteristicID, opcode: UInt8,
                             waiter: CheckedContinuation<NordicButtonlessOutcome, Never>)?
    /// Waiting for the answer to one Control Point request outside a transfer (`dfu info`).
    private var single: (opcode: NordicOpcode, waiter: CheckedContinuation<NordicRequestOutcome, Never>)?
    /// How long a refused write's link must stay up for the refusal to count (as the transfer's
    /// `NordicTransferConfiguration.linkVerdictDelay`).
    private let linkVerdictDelay: Duration

    /// Serves `link` (enabling Control Point notifications when the link has the Control Point).
    /// `clock` is the time base of every deadline.
    public init<C: Clock>(link: any Link, clock: C, linkVerdictDelay: Duration = .seconds(1)) async throws(LinkError)
        where C.Duration == Duration {
        self.linkVerdictDelay = linkVerdictDelay
        let driver = LinkDriver<Write>(clock: InstantClock(clock))
        self.driver = driver
        linkLosses = driver.linkLosses
        try await Self.subscribe(link)
        serve(link)
    }

    deinit {
        driver.close()
    }

    /// The link served now.
    public var link: (any Link)? { driver.link }

    /// What the last transfer did and how often it recovered; nil before the first ended.
    public private(set) var lastStatistics: NordicTransferStatistics?

    /// Set when a transfer ended with its final Execute (answered, or outstanding when the link
    /// dropped), cleared when a new link is attached or a transfer starts.
    private var finalExecuteDone = false

    /// Whether the bootloader is due to reset by itself now: the final Execute of the transfer went
    /// out, and no new link came since. A link loss then is that reset, not a fault to recover from.
    public var resetIsDue: Bool {
        finalExecuteDone || transfer?.core.awaitsFinalExecute == true
    }

    /// Sends `initPacket` and `firmware` as the core decides, from wherever the device is. Returns
    /// once the final Execute succeeded (or was outstanding when the link dropped: the bootloader
    /// then most likely validated and reset), or throws the core's failure.
    public func transfer(initPacket: [UInt8], firmware: [UInt8], configuration: NordicTransferConfiguration,
                         progress: @escaping @Sendable (AcknowledgedProgress) -> Void)
        async throws(NordicTransferError) -> NordicTransferCompletion {
        guard transfer == nil, !driver.isClosed else {
            throw .localProtocolViolation(event: "transfer", state: driver.isClosed ? "closed" : "transferring")
        }
        finalExecuteDone = false
        var configuration = configuration
        if let link = driver.link {
            configuration.packetSize = NordicTransferConfiguration.packetSize(attMTU: link.parameters.attMTU)
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<NordicTransferCompletion, NordicTransferError>, Never>) in
                if Task.isCancelled { return continuation.resume(returning: .failure(.cancelled)) }
                transfer = Transfer(core: NordicTransferCore(initPacket: initPacket, firmware: firmware,
                                                             configuration: configuration),
                                    progress: progress, finish: continuation)
                feed(.start)
                if driver.link == nil { feed(.linkLost) } // started while the link was down: park at once
            }
        } onCancel: {
            Task { await self.end(.failure(.cancelled)) }
        }
        return try result.get()
    }

    /// Serves a new link after the previous one was lost; a transfer in progress resumes on it.
    public func attach(_ link: any Link) async throws(LinkError) {
        guard !driver.isClosed else { return }
        finalExecuteDone = false
        // The old link's `.disconnected` may not have reached us yet; the core needs it first.
        if driver.dropCurrentLink() { feed(.linkLost) }
        try await Self.subscribe(link)
        guard driver.canServe else { return }
        serve(link)
        if Self.hasControlPoint(link) {
            feed(.linkRestored(packetSize: NordicTransferConfiguration.packetSize(attMTU: link.parameters.attMTU)))
        }
    }

    /// Stops serving: a transfer in progress fails with `linkNotRestored`. The link is left as it
    /// is (its owner disconnects it).
    public func close() {
        guard !driver.isClosed else { return }
        driver.close()
        finishButtonless(.linkLost)
        finishSingle(.linkLost)
        if let transfer {
            self.transfer = nil
            transfer.finish.resume(returning: .failure(.linkNotRestored(after: .zero)))
        }
    }

    /// Writes `request` to the buttonless characteristic (indications enabled first) and waits for
    /// the application's answer or the link to drop, within `timeout` (model time).
    public func buttonless(_ request: [UInt8], through characteristic: CharacteristicID,
                           timeout: Duration) async -> NordicButtonlessOutcome {
        guard buttonless == nil, let opcode = request.first else { return .linkLost }
        // No link: the request never goes out (unlike `.linkLost`, which may be the device's reset).
        guard let link = driver.link else { return .writeFailed(.disconnected(.other("no link to write to"))) }
        do throws(LinkError) {
            try await link.subscribe(characteristic)
        } catch {
            return .writeFailed(error)
        }
        let deadline = driver.now.advanced(by: timeout)
        let clock = driver.clock
        let timeoutTask = Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.finishButtonless(.timedOut)
        }
        let outcome = await withCheckedContinuation { continuation in
            buttonless = (characteristic, opcode, continuation)
            let generation = link.parameters.generation
            Task { [weak self] in
                do throws(LinkError) {
                    try await link.write(request, to: characteristic)
                } catch {
                    if case .disconnected = error { return } // the drop itself answers
                    await self?.writeFailed(error, generation: generation) { session, error, generation in
                        session.finishButtonless(.writeFailed(error), generation: generation)
                    }
                }
            }
        }
        timeoutTask.cancel()
        return outcome
    }

    /// One Control Point request outside a transfer, such as Select (which changes nothing on the
    /// bootloader), and its answer within `timeout` (model time).
    public func request(_ request: NordicRequest, timeout: Duration) async -> NordicRequestOutcome {
        guard let link = driver.link, transfer == nil, single == nil else { return .linkLost }
        let deadline = driver.now.advanced(by: timeout)
        let clock = driver.clock
        let timeoutTask = Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.finishSingle(.timedOut)
        }
        let outcome = await withCheckedContinuation { continuation in
            single = (request.opcode, continuation)
            let generation = link.parameters.generation
            Task { [weak self] in
                do throws(LinkError) {
                    try await link.write(request.encoded, to: NordicDFUService.controlPoint)
                } catch {
                    await self?.writeFailed(error, generation: generation) { session, error, generation in
                        session.finishSingle(.writeFailed(error), generation: generation)
                    }
                }
            }
        }
        timeoutTask.cancel()
        return outcome
    }

    /// A request whose write the link refused with an ATT error: a link going down answers that
    /// way before its loss is reported (bluetoothd's 0x0E), so the refusal is reported only when
    /// the link is still up `linkVerdictDelay` later; a loss in between answers as `.linkLost`.
    private func writeFailed(_ error: LinkError, generation: LinkGeneration,
                             finish: @escaping @Sendable (isolated NordicSession, LinkError, LinkGeneration) -> Void) async {
        guard case .rejected = error else { return finish(self, error, generation) }
        let deadline = driver.now.advanced(by: linkVerdictDelay)
        let clock = driver.clock
        do { try await clock.sleep(until: deadline) } catch { return }
        finish(self, error, generation)
    }

    private func finishSingle(_ outcome: NordicRequestOutcome, generation: LinkGeneration? = nil) {
        if let generation, driver.generation != generation { return }
        guard let pending = single else { return }
        single = nil
        pending.waiter.resume(returning: outcome)
    }

    private func finishButtonless(_ outcome: NordicButtonlessOutcome, generation: LinkGeneration? = nil) {
        if let generation, driver.generation != generation { return }
        guard let pending = buttonless else { return }
        buttonless = nil
        pending.waiter.resume(returning: outcome)
    }

    // MARK: - Driving

    private static func hasControlPoint(_ link: any Link) -> Bool {
        link.services.contains { service in
            service.id == NordicDFUService.service && service.characteristics.contains { $0.id == NordicDFUService.controlPoint }
        }
    }

    private static func subscribe(_ link: any Link) async throws(LinkError) {
        if hasControlPoint(link) { try await link.subscribe(NordicDFUService.controlPoint) }
    }

    /// Serves `link`: Control Point writes as Write Requests (one the link rejects with an ATT
    /// error goes to the core, and the queue goes on), packets as Write Commands, each batch
    /// reported taken. Any other failed write ends the queue and the link (`ServedLink`).
    private func serve(_ link: any Link) {
        driver.serve(link, events: { [weak self] event in await self?.receive(event) },
                     write: { [weak self] (write: Write, link: any Link) async throws(LinkError) in
                         let generation = link.parameters.generation
                         switch write {
                         case .controlPoint(let bytes):
                             do throws(LinkError) {
                                 try await link.write(bytes, to: NordicDFUService.controlPoint)
                             } catch {
                                 guard case .rejected(_, let attError) = error else { throw error }
                                 await self?.controlPointRejected(attError, generation: generation)
                             }
                         case .packets(let packets):
                             for packet in packets { try await link.writeWithoutResponse(packet, to: NordicDFUService.packet) }
                             await self?.packetsAccepted(generation: generation)
                         }
                     })
    }

    private func receive(_ event: LinkEvent) {
        switch driver.accept(event) {
        case .notification(let source, let bytes)?:
            if source == NordicDFUService.controlPoint { feed(.controlPointNotification(bytes)) }
            if source == NordicDFUService.controlPoint, let pending = single {
                do throws(NordicWireError) {
                    let response = try NordicResponse(decoding: bytes)
                    finishSingle(response.opcode == pending.opcode ? .answered(response) : .garbled("an answer to \(response.opcode)"))
                } catch {
                    finishSingle(.garbled("\(error)"))
                }
            }
            if let pending = buttonless, source == pending.characteristic,
               let status = NordicButtonless.status(of: bytes, answering: pending.opcode) {
                finishButtonless(.answered(status))
            }
        case .disconnected(let reason)?:
            finishButtonless(.linkLost)
            finishSingle(.linkLost)
            feed(.linkLost)
            driver.reportLoss(reason)
        case nil:
            return // an earlier link's
        }
    }

    private func packetsAccepted(generation: LinkGeneration) {
        guard driver.generation == generation else { return }
        feed(.packetsAccepted)
    }

    private func controlPointRejected(_ attError: ATTError, generation: LinkGeneration) {
        guard driver.generation == generation else { return }
        feed(.controlPointWriteRejected(attError: attError.code))
    }

    private func feed(_ event: NordicTransferCore.Event) {
        guard var current = transfer else { return }
        let actions = current.core.handle(event, now: driver.now)
        transfer = current
        perform(actions)
    }

    private func perform(_ actions: [NordicTransferCore.Action]) {
        for action in actions {
            switch action {
            case .writeControlPoint(let bytes): driver.send(.controlPoint(bytes))
            case .writePackets(let packets): driver.send(.packets(packets))
            case .timer(let at): arm(at)
            case .progress(let progress): transfer?.progress(progress)
            case .reconnect: break // the engine's connection reconnects and calls `attach`
            case .completed(let completion):
                finalExecuteDone = true
                end(.success(completion))
            case .failed(let error): end(.failure(error))
            }
        }
    }

    private func end(_ result: Result<NordicTransferCompletion, NordicTransferError>) {
        guard let transfer else { return }
        lastStatistics = transfer.core.statistics
        self.transfer = nil
        driver.cancelTimer()
        transfer.finish.resume(returning: result)
    }

    private func arm(_ deadline: MonotonicInstant?) {
        driver.arm(deadline) { [weak self] in await self?.timerFired() }
    }

    private func timerFired() {
        driver.timerFired()
        feed(.timerFired)
        // An early wake-up changes no deadline, so no `.timer` action follows: re-arm from the core.
        arm(transfer?.core.nextDeadline)
    }
}
