/// All state of one memory connection, both directions: transmit buffers, the ATT request in
/// flight, subscriptions, faults, and the loop that plays connection events on the model clock.
///
/// An actor because the writer, the device, the radio loop and fault injection all touch this state
/// concurrently; its suspension points are exactly the model's waits (buffers full, a slot's
/// airtime, a response). The loop never sleeps except to an instant the timing model computed.
actor MemoryRadio {
    typealias Acceptance = CheckedContinuation<Result<Void, LinkError>, Never>

    struct Paths {
        var central: TransmitPath<CentralPDU>
        var device: TransmitPath<PeripheralPDU>
    }

    private enum State {
        case open
        /// The reasons as each side sees them; the central's host reports its end at `reportedAt`
        /// (`LinkProfile.dropReportDelay`), and until then its ATT requests fail with 0x0E.
        case closed(central: DisconnectReason, peripheral: DisconnectReason, reportedAt: MonotonicInstant)
    }

    let profile: LinkProfile
    let timing: RadioTiming
    let clock: LinkClock
    let parameters: LinkParameters
    /// The adapter whose radio this connection shares; nil = a radio of its own.
    let adapter: MemoryAdapter?
    /// When the connection came up; connection event k starts at origin + k × interval.
    let origin: MonotonicInstant
    private let characteristics: [CharacteristicID: CharacteristicProperties]
    /// Central events with the instant the app may see them (notification latency), in air order.
    private let centralHost: AsyncStream<(MonotonicInstant, LinkEvent)>.Continuation
    /// What reached the device, for the delivery task.
    private let inbox: AsyncStream<PeripheralInbound>.Continuation

    private var state = State.open
    var paths: Paths
    private var subscribed: Set<CharacteristicID> = []
    private var requests = ATTRequestQueue()
    private var lastID: UInt64 = 0
    var workWaiter: CheckedContinuation<Void, Never>?
    /// When the idle radio was last handed work: its next connection event is the first at or after it.
    var workQueuedAt: MonotonicInstant?
    /// Devices waiting for their queued notifications and responses to leave (`flush`).
    private var flushWaiters: [CheckedContinuation<Void, Never>] = []
    private var byteLimit: Int?
    private var dropTime: Duration?
    var stats = MemoryLinkStatistics()
    private var airTask: Task<Void, Never>?
    private var dropTimer: Task<Void, Never>?
    /// This connection's place on `adapter`, from `start` on.
    var seat: MemoryAdapter.Seat?

    init(profile: LinkProfile, clock: LinkClock, parameters: LinkParameters, adapter: MemoryAdapter?, services: [GATTService],
         centralHost: AsyncStream<(MonotonicInstant, LinkEvent)>.Continuation,
         inbox: AsyncStream<PeripheralInbound>.Continuation) {
        self.profile = profile
        timing = profile.timing
        self.clock = clock
        self.parameters = parameters
        self.adapter = adapter
        origin = clock.now
        var table: [CharacteristicID: CharacteristicProperties] = [:]
        for characteristic in services.flatMap(\.characteristics) where table[characteristic.id] == nil {
            table[characteristic.id] = characteristic.properties
        }
        characteristics = table
        self.centralHost = centralHost
        self.inbox = inbox
        paths = Paths(central: TransmitPath(bufferCount: profile.txBufferCount),
                      device: TransmitPath(bufferCount: profile.peripheralTXBufferCount))
    }

    /// Starts the radio loop, the central's event delivery and the device's delivery task.
    /// `onEnd` runs once the device has handled the end of this connection (its `handleDisconnect`
    /// returned), never before: a connector makes the device connectable again only then.
    func start(peripheral: any MemoryPeripheral, userEvents: AsyncStream<LinkEvent>.Continuation,
               hostEvents: AsyncStream<(MonotonicInstant, LinkEvent)>, inboxItems: AsyncStream<PeripheralInbound>,
               onEnd: (@Sendable (LinkGeneration) async -> Void)?) async {
        if let adapter { seat = await adapter.join(interval: profile.connectionInterval) }
        airTask = Task { await self.runAir() }
        Task { [clock] in await Self.deliver(hostEvents, to: userEvents, clock: clock) }
        Task { [parameters] in
            await Self.serve(peripheral, inbox: inboxItems, radio: self)
            await onEnd?(parameters.generation)
        }
    }

    var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    func statistics() -> MemoryLinkStatistics { stats }

    func isSubscribed(_ characteristic: CharacteristicID) -> Bool { subscribed.contains(characteristic) }

    // MARK: Central operations

    func writeCommand(_ value: [UInt8], to characteristic: CharacteristicID) async -> Result<Void, LinkError> {
        // Before the host reports the end, it takes Write Commands as from a socket, and loses them.
        if case .rejected = closedRequestError(characteristic) { return .success(()) }
        if let refusal = refusal(characteristic, needs: .writeWithoutResponse) { return .failure(refusal) }
        guard value.count <= parameters.maxWriteWithoutResponse else {
            return .failure(.payloadTooLarge(size: value.count, limit: parameters.maxWriteWithoutResponse))
        }
        let pdu = CentralPDU.writeCommand(characteristic, value)
        return await submit(pdu, size: pdu.sduSize, on: \.central, closedReason: centralReason)
    }

    func writeRequest(_ value: [UInt8], to characteristic: CharacteristicID) async -> Result<[UInt8], LinkError> {
        guard value.count <= parameters.attMTU - 3 else {
            return .failure(.payloadTooLarge(size: value.count, limit: parameters.attMTU - 3))
        }
        return await request(characteristic, needs: .write) { .writeRequest($0, characteristic, value) }
    }

    func read(_ characteristic: CharacteristicID) async -> Result<[UInt8], LinkError> {
        await request(characteristic, needs: .read) { .readRequest($0, characteristic) }
    }

    func subscribe(_ characteristic: CharacteristicID) async -> Result<[UInt8], LinkError> {
        await request(characteristic, needs: Self.notifyOrIndicate) { .subscribeRequest($0, characteristic) }
    }

    // MARK: Peripheral operations

    func notify(_ value: [UInt8], from characteristic: CharacteristicID) async -> Result<Void, LinkError> {
        if case .closed(_, let reason, _) = state { return .failure(.disconnected(reason)) }
        if let refusal = refusal(characteristic, needs: Self.notifyOrIndicate) { return .failure(refusal) }
        guard subscribed.contains(characteristic) else { return .failure(.notSubscribed(characteristic)) }
        guard value.count <= parameters.attMTU - 3 else {
            return .failure(.payloadTooLarge(size: value.count, limit: parameters.attMTU - 3))
        }
        let pdu = PeripheralPDU.notification(characteristic, value)
        return await submit(pdu, size: pdu.sduSize, on: \.device, closedReason: peripheralReason)
    }

    /// Returns once everything the device queued has gone over the air, or the link dropped.
    func flush() async {
        guard isOpen, !paths.device.isEmpty else { return }
        await withCheckedContinuation { flushWaiters.append($0) }
    }

    /// The device's answer to request `id`; queued behind its earlier notifications.
    func respond(_ id: RequestID, _ result: Result<[UInt8], ATTError>) {
        guard isOpen else { return }
        let pdu = PeripheralPDU.response(id, result)
        paths.device.enqueue(.init(id: nextID(), pdu: pdu, fragments: timing.fragments(sduSize: pdu.sduSize), acceptance: nil))
        accept(paths.device.fill())
        wakeAir()
    }

    // MARK: Faults and the end

    func inject(_ fault: LinkFault) {
        guard isOpen else { return }
        switch fault {
        case .dropAfterBytes(let limit):
            byteLimit = min(byteLimit ?? limit, limit)
        case .dropAt(let time):
            dropTime = min(dropTime ?? time, time)
            if dropTimeReached(at: clock.now) { return }
            // At scale 0 an idle link has no time passing: the loop checks at each slot instead.
            guard clock.timeScale > 0 else { return }
            dropTimer?.cancel()
            dropTimer = Task { [clock, origin] in
                guard await clock.pause(until: origin.advanced(by: time)) else { return }
                _ = self.dropTimeReached(at: clock.now)
            }
        }
    }

    /// Ends the connection: fails everything waiting, discards what is still in buffers, and ends
    /// both sides' event flows with the reason each side sees.
    func drop(central: DisconnectReason, peripheral: DisconnectReason) {
        guard isOpen else { return }
        // A host learns at once of an end it asked for; of any other after `dropReportDelay`.
        let delay = central == .localHostTerminated ? .zero : profile.dropReportDelay
        let reportedAt = clock.now.advanced(by: delay)
        state = .closed(central: central, peripheral: peripheral, reportedAt: reportedAt)
        for writer in paths.central.clear() { writer.resume(returning: .failure(.disconnected(central))) }
        for writer in paths.device.clear() { writer.resume(returning: .failure(.disconnected(peripheral))) }
        if delay > .zero {
            requests.failAll { .rejected($0, .unlikelyError) }
        } else {
            requests.failAll { _ in .disconnected(central) }
        }
        centralHost.yield((reportedAt, LinkEvent(generation: parameters.generation, kind: .disconnected(central))))
        centralHost.finish()
        inbox.yield(.disconnected(peripheral))
        inbox.finish()
        workWaiter?.resume()
        workWaiter = nil
        releaseFlushWaiters()
        airTask?.cancel()
        dropTimer?.cancel()
        if let adapter, let seat { Task { await adapter.leave(seat) } }
    }

    // MARK: Internals

    private var centralReason: DisconnectReason? {
        if case .closed(let reason, _, _) = state { return reason }
        return nil
    }

    private var peripheralReason: DisconnectReason? {
        if case .closed(_, let reason, _) = state { return reason }
        return nil
    }

    /// How the central's host fails an ATT request on `characteristic` once the link is down:
    /// with 0x0E until it has reported the end (`LinkProfile.dropReportDelay`), then as disconnected.
    /// (Write Commands meanwhile vanish without an error, as into bluetoothd's acquired socket.)
    private func closedRequestError(_ characteristic: CharacteristicID) -> LinkError? {
        guard case .closed(let reason, _, let reportedAt) = state else { return nil }
        return clock.now < reportedAt ? .rejected(characteristic, .unlikelyError) : .disconnected(reason)
    }

    private func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Values pushed by the device come as notifications or indications; either property will do.
    private static let notifyOrIndicate: CharacteristicProperties = [.notify, .indicate]

    /// Nil when `characteristic` allows what is needed: every property of `needs`, or for
    /// `notifyOrIndicate` either of the two.
    private func refusal(_ characteristic: CharacteristicID, needs: CharacteristicProperties) -> LinkError? {
        if let reason = centralReason { return .disconnected(reason) }
        guard let properties = characteristics[characteristic] else { return .characteristicNotFound(characteristic) }
        let allowed = needs == Self.notifyOrIndicate ? !properties.isDisjoint(with: needs) : properties.contains(needs)
        guard allowed else { return .notSupported(characteristic, missing: needs) }
        return nil
    }

    func accept(_ writers: [Acceptance]) {
        for writer in writers { writer.resume(returning: .success(())) }
    }

    func releaseFlushWaiters() {
        for waiter in flushWaiters { waiter.resume() }
        flushWaiters.removeAll()
    }

    private func wakeAir() {
        guard let waiter = workWaiter else { return }
        workWaiter = nil
        workQueuedAt = clock.now
        waiter.resume()
    }

    /// Puts an SDU on one side's transmit path; suspends until its last fragment is in a
    /// controller buffer (back-pressure). Order is call order.
    private func submit<PDU: Sendable>(_ pdu: PDU, size: Int, on side: WritableKeyPath<Paths, TransmitPath<PDU>>,
                                       closedReason: @autoclosure () -> DisconnectReason?) async -> Result<Void, LinkError> {
        let id = nextID()
        let pieces = timing.fragments(sduSize: size)
        if paths[keyPath: side].canTakeAtOnce(fragmentCount: pieces.count) {
            paths[keyPath: side].enqueue(.init(id: id, pdu: pdu, fragments: pieces, acceptance: nil))
            _ = paths[keyPath: side].fill()
            wakeAir()
            return .success(())
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (writer: Acceptance) in
                if Task.isCancelled { return writer.resume(returning: .failure(.cancelled)) }
                if let reason = closedReason() { return writer.resume(returning: .failure(.disconnected(reason))) }
                paths[keyPath: side].enqueue(.init(id: id, pdu: pdu, fragments: pieces, acceptance: writer))
                accept(paths[keyPath: side].fill())
                wakeAir()
            }
        } onCancel: {
            Task { await self.withdraw(id) }
        }
    }

    /// A cancelled writer leaves the queue if none of its value was handed to the controller.
    private func withdraw(_ id: UInt64) {
        paths.central.cancel(id: id)?.resume(returning: .failure(.cancelled))
        paths.device.cancel(id: id)?.resume(returning: .failure(.cancelled))
    }

    /// Sends an ATT request and waits for its response; one request at a time, as ATT requires.
    private func request(_ characteristic: CharacteristicID, needs: CharacteristicProperties,
                         _ make: (RequestID) -> CentralPDU) async -> Result<[UInt8], LinkError> {
        if let error = closedRequestError(characteristic) { return .failure(error) }
        if let refusal = refusal(characteristic, needs: needs) { return .failure(refusal) }
        let id = nextID()
        let pdu = make(id)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: ATTRequestQueue.Answer) in
                if Task.isCancelled { return waiter.resume(returning: .failure(.cancelled)) }
                if let error = closedRequestError(characteristic) { return waiter.resume(returning: .failure(error)) }
                requests.append(.init(id: id, characteristic: characteristic, pdu: pdu, waiter: waiter))
                startNextRequest()
            }
        } onCancel: {
            Task { await self.abandon(id) }
        }
    }

    private func startNextRequest() {
        guard isOpen, let next = requests.startNext() else { return }
        paths.central.enqueue(.init(id: next.id, pdu: next.pdu, fragments: timing.fragments(sduSize: next.pdu.sduSize),
                                    acceptance: nil))
        accept(paths.central.fill())
        wakeAir()
    }

    private func abandon(_ id: RequestID) {
        requests.abandon(id)
    }

    private func complete(_ id: RequestID, _ result: Result<[UInt8], ATTError>) {
        guard let answered = requests.complete(id) else { return }
        answered.waiter?.resume(returning: result.mapError { .rejected(answered.characteristic, $0) })
        startNextRequest()
    }

    /// Drops the link if the fault time has come by `instant`.
    func dropTimeReached(at instant: MonotonicInstant) -> Bool {
        guard isOpen, let time = dropTime, origin.duration(to: instant) >= time else { return false }
        drop(central: .connectionTimeout, peripheral: .connectionTimeout)
        return true
    }

    func arrivedAtPeripheral(_ pdu: CentralPDU) {
        switch pdu {
        case .writeCommand(let characteristic, let value):
            guard admit(value.count) else { return }
            inbox.yield(.write(characteristic, value, request: nil))
        case .writeRequest(let id, let characteristic, let value):
            guard admit(value.count) else { return }
            inbox.yield(.write(characteristic, value, request: id))
        case .readRequest(let id, let characteristic):
            inbox.yield(.read(id, characteristic))
        case .subscribeRequest(let id, let characteristic):
            subscribed.insert(characteristic)
            inbox.yield(.subscribe(id, characteristic))
        }
    }

    /// Counts written value bytes, or drops the link when `LinkFault.dropAfterBytes` says so.
    private func admit(_ count: Int) -> Bool {
        if let limit = byteLimit, stats.valueBytesWritten + count > limit {
            drop(central: .connectionTimeout, peripheral: .connectionTimeout)
            return false
        }
        stats.valueBytesWritten += count
        return true
    }

    func arrivedAtCentral(_ pdu: PeripheralPDU, at instant: MonotonicInstant) {
        switch pdu {
        case .notification(let characteristic, let value):
            stats.notifications += 1
            let event = LinkEvent(generation: parameters.generation, kind: .notification(characteristic, value))
            centralHost.yield((instant.advanced(by: profile.notificationLatency), event))
        case .response(let id, let result):
            complete(id, result)
        }
    }
}
