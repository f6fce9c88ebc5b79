import Transport

/// The thin async driver between a `Link` and the SMP cores: it feeds link events to the core in
/// charge (the `SMPClientCore` for single requests, an `ImageUploadCore` while an upload runs) and
/// carries out the actions: writes (Write Commands, in order through `LinkDriver`, whose link's
/// suspension is the flow control), the one timer, continuations and the progress stream. Every
/// protocol decision is the cores'; the link, its generations and losses, and the timer are the
/// shared `LinkDriver`'s.
///
/// After a link is lost the caller reconnects (the engine, with its backoff) and hands the new link
/// to `attach(_:)`; an upload in progress then resumes from the device's offset.
public actor SMPSession {
    public struct Configuration: Sendable, Hashable {
        public var characteristic: CharacteristicID
        /// Deadline of a single request (not of upload chunks: see `ImageUploadConfiguration`).
        public var requestTimeout: Duration
        public var client: SMPClientCore.Configuration

        public init(characteristic: CharacteristicID = SMPGATT.characteristic, requestTimeout: Duration = .seconds(5),
                    client: SMPClientCore.Configuration = .init()) {
            self.characteristic = characteristic
            self.requestTimeout = requestTimeout
            self.client = client
        }
    }

    /// Which core is in charge. The client moves into the upload core and back, so sequence
    /// numbers run on across both.
    fileprivate enum Mode {
        case requests(SMPClientCore)
        case uploading(ImageUploadCore, AsyncThrowingStream<AcknowledgedProgress, any Error>.Continuation)
        case closed
    }

    public let configuration: Configuration
    /// Yields each time the served link goes down, so the owner (the engine) knows to reconnect
    /// and `attach` the new link. One consumer.
    public nonisolated let linkLosses: AsyncStream<DisconnectReason>
    /// The link, its writes (each one Write Command), losses and the timer.
    private var driver: LinkDriver<[UInt8]>
    private var mode: Mode
    private var pending: [SMPRequestID: CheckedContinuation<Result<SMPPacket, SMPClientError>, Never>] = [:]
    private var nextID = SMPRequestID(0)

    /// Subscribes to the SMP characteristic on `link` and starts serving it. `clock` is the time
    /// base of every deadline (a model clock runs the session faster than real time in tests).
    public init<C: Clock>(link: any Link, configuration: Configuration = .init(), clock: C) async throws(LinkError)
    where C.Duration == Duration {
        let driver = LinkDriver<[UInt8]>(clock: InstantClock(clock))
        self.driver = driver
        linkLosses = driver.linkLosses
        self.configuration = configuration
        let budget = SMPPacketBudget(startingOn: link)
        var client = configuration.client
        // A link without a connection may carry an earlier client's answers into this one.
        if link.parameters.isConnectionless { client.dropsLeftoverReplies = true }
        mode = .requests(SMPClientCore(budget: budget, configuration: client))
        try await link.subscribe(configuration.characteristic)
        serve(link)
    }

    public init(link: any Link, configuration: Configuration = .init()) async throws(LinkError) {
        try await self.init(link: link, configuration: configuration, clock: ContinuousClock())
    }

    deinit {
        driver.close()
    }

    // MARK: - API

    /// How often a request is sent over a link without a connection (UDP, a serial line) before a
    /// silent device is given up on: a datagram can be lost and a serial frame garbled without
    /// anything saying so. Every request sent this way is idempotent (a state read, an image mark,
    /// an erase, an echo); a reset is not (a second boot reverts an image under test), so its
    /// callers send it once. Uploads have their own rule.
    public static let attemptsWithoutConnection = 2

    /// Sends one request and returns the device's typed answer. Throws the device's refusal
    /// (`.refused` with the named error), `.timeout`, `.linkLost`, `.busy` during an upload, a
    /// protocol violation, or `.cancelled` at once when the calling task is cancelled (Ctrl-C must
    /// not wait out the deadline of a device that does not answer). `attempts`: how often it is
    /// sent while each one times out; nil: `attemptsWithoutConnection` over a link without a
    /// connection, else once. A probe that looks for silence passes 1.
    public func request<R: SMPRequest>(_ request: R, timeout: Duration? = nil,
                                       attempts: Int? = nil) async throws(SMPClientError) -> R.Response {
        let tries = max(attempts ?? (driver.link?.parameters.isConnectionless == true ? Self.attemptsWithoutConnection : 1), 1)
        var result = await send(request, timeout: timeout)
        for _ in 1..<tries {
            guard case .failure(.timeout) = result, !Task.isCancelled else { break }
            result = await send(request, timeout: timeout)
        }
        return try R.response(from: result).get()
    }

    private func send<R: SMPRequest>(_ request: R, timeout: Duration?) async -> Result<SMPPacket, SMPClientError> {
        let id = nextID
        nextID = id.next
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<SMPPacket, SMPClientError>, Never>) in
                guard case .requests(var client) = mode else {
                    continuation.resume(returning: .failure(mode.isClosed ? .closed : .busy))
                    return
                }
                pending[id] = continuation
                let actions = client.handle(.send(id, SMPRequestMessage(request), timeout: timeout ?? configuration.requestTimeout),
                                            now: driver.now)
                mode = .requests(client)
                perform(actions)
            }
        } onCancel: {
            // Runs on the actor after this request is registered (the actor is busy until then).
            Task { await self.withdraw(id) }
        }
    }

    /// Stops waiting for request `id` on behalf of a cancelled caller. The core still holds it until
    /// its answer or deadline, which then finds no one waiting and is dropped.
    private func withdraw(_ id: SMPRequestID) {
        pending.removeValue(forKey: id)?.resume(returning: .failure(.cancelled))
    }

    /// Tells the client what the device said about its SMP buffers (from the MCUmgr parameters,
    /// and whether the device was found to reassemble). Used from the next packet on.
    public func setDeviceLimits(bufferSize: Int?, reassembles: Bool) {
        guard case .requests(var client) = mode else { return }
        let actions = client.handle(.deviceLimits(bufferSize: bufferSize, reassembles: reassembles), now: driver.now)
        mode = .requests(client)
        perform(actions)
    }

    /// The packet budget new requests and uploads are cut to.
    public var budget: SMPPacketBudget? {
        switch mode {
        case .requests(let client): return client.budget
        case .uploading(let upload, _): return upload.client.budget
        case .closed: return nil
        }
    }

    /// Uploads an image. The stream yields the device's progress and finishes when the device holds
    /// the whole image, or throws an `ImageUploadError` (or `SMPClientError.busy`/`.closed`).
    /// Ending the iteration early abandons the upload (the device keeps its session for a resume).
    public func upload(_ job: ImageUploadJob, configuration upload: ImageUploadConfiguration)
        -> AsyncThrowingStream<AcknowledgedProgress, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: AcknowledgedProgress.self, throwing: (any Error).self,
                                                                  bufferingPolicy: .bufferingNewest(1))
        guard case .requests(let client) = mode, pending.isEmpty else {
            continuation.finish(throwing: mode.isClosed ? SMPClientError.closed : SMPClientError.busy)
            return stream
        }
        var core = ImageUploadCore(job: job, configuration: upload, client: client, firstRequestID: nextID)
        let actions = core.handle(.start, now: driver.now)
        mode = .uploading(core, continuation)
        continuation.onTermination = { [weak self] termination in
            guard case .cancelled = termination else { return }
            Task { await self?.abandonUpload() }
        }
        perform(actions)
        return stream
    }

    /// Serves a new link after the previous one was lost: its generation is the one accepted from
    /// now on, and the cores learn its write size (an upload resumes).
    public func attach(_ link: any Link) async throws(LinkError) {
        guard !driver.isClosed else { return }
        // The old link's `.disconnected` may not have reached us yet; the cores need it first.
        if driver.dropCurrentLink() { feed(.linkLost) }
        try await link.subscribe(configuration.characteristic)
        guard driver.canServe else { return }
        serve(link)
        feed(.linkRestored(maxWriteSize: link.parameters.maxWriteWithoutResponse))
    }

    /// Stops serving: waiting requests end with `.closed`, an upload stream throws it. The link is
    /// left as it is (its owner disconnects it).
    public func close() {
        if case .uploading(_, let continuation) = mode { continuation.finish(throwing: SMPClientError.closed) }
        mode = .closed
        driver.close()
        let waiting = pending
        pending = [:]
        for continuation in waiting.values { continuation.resume(returning: .failure(.closed)) }
    }

    // MARK: - Driving

    fileprivate enum Input {
        case notification([UInt8])
        case timerFired
        case linkLost
        case linkRestored(maxWriteSize: Int)
    }

    /// Serves `link`: each queued write is one Write Command to the SMP characteristic.
    private func serve(_ link: any Link) {
        let characteristic = configuration.characteristic
        driver.serve(link, events: { [weak self] event in await self?.receive(event) },
                     write: { (bytes: [UInt8], link: any Link) async throws(LinkError) in
                         try await link.writeWithoutResponse(bytes, to: characteristic)
                     })
    }

    private func receive(_ event: LinkEvent) {
        switch driver.accept(event) {
        case .notification(let source, let bytes)?:
            if source == configuration.characteristic { feed(.notification(bytes)) }
        case .disconnected(let reason)?:
            feed(.linkLost)
            driver.reportLoss(reason)
        case nil:
            return // an earlier link's
        }
    }

    private func timerFired() {
        driver.timerFired()
        feed(.timerFired)
        // An early wake-up changes no deadline, so no `.timer` action follows: re-arm from the core.
        arm(mode.nextDeadline)
    }

    private func feed(_ input: Input) {
        switch mode {
        case .requests(var client):
            let actions = client.handle(input.clientEvent, now: driver.now)
            mode = .requests(client)
            perform(actions)
        case .uploading(var upload, let continuation):
            let actions = upload.handle(input.uploadEvent, now: driver.now)
            mode = .uploading(upload, continuation)
            perform(actions)
        case .closed:
            return
        }
    }

    private func perform(_ actions: [SMPClientCore.Action]) {
        for action in actions {
            switch action {
            case .write(let bytes): driver.send(bytes)
            case .timer(let at): arm(at)
            case .finished(let id, let result): pending.removeValue(forKey: id)?.resume(returning: result)
            case .failed: break // every waiting request was finished with the same error just before
            }
        }
    }

    private func perform(_ actions: [ImageUploadCore.Action]) {
        guard case .uploading(let upload, let continuation) = mode else { return }
        for action in actions {
            switch action {
            case .write(let bytes): driver.send(bytes)
            case .timer(let at): arm(at)
            case .progress(let progress): continuation.yield(progress)
            case .completed:
                endUpload(upload)
                continuation.finish()
                // What follows is the finished upload's own timer; `endUpload` armed the client's
                // (a stale chunk's deadline), which a trailing `.timer(at: nil)` would cancel.
                return
            case .failed(let error):
                endUpload(upload)
                continuation.finish(throwing: error)
                return
            }
        }
    }

    /// Takes the client back from a finished or abandoned upload.
    private func endUpload(_ upload: ImageUploadCore) {
        nextID = upload.nextRequestID
        mode = .requests(upload.client)
        arm(upload.client.nextDeadline) // replies still due to stale chunks need their deadlines
    }

    private func abandonUpload() {
        guard case .uploading(let upload, _) = mode else { return }
        endUpload(upload)
    }

    private func arm(_ deadline: MonotonicInstant?) {
        driver.arm(deadline) { [weak self] in await self?.timerFired() }
    }
}

extension SMPSession.Input {
    fileprivate var clientEvent: SMPClientCore.Event {
        switch self {
        case .notification(let bytes): return .notification(bytes)
        case .timerFired: return .timerFired
        case .linkLost: return .linkLost
        case .linkRestored(let size): return .linkRestored(maxWriteSize: size)
        }
    }

    fileprivate var uploadEvent: ImageUploadCore.Event {
        switch self {
        case .notification(let bytes): return .notification(bytes)
        case .timerFired: return .timerFired
        case .linkLost: return .linkLost
        case .linkRestored(let size): return .linkRestored(maxWriteSize: size)
        }
    }
}

extension SMPSession.Mode {
    fileprivate var isClosed: Bool {
        if case .closed = self { return true }
        return false
    }

    /// The core's earliest deadline (quinn's `poll_timeout`).
    fileprivate var nextDeadline: MonotonicInstant? {
        switch self {
        case .requests(let client): return client.nextDeadline
        case .uploading(let upload, _): return upload.nextDeadline
        case .closed: return nil
        }
    }
}
