import Synchronization
import Transport

/// Updates one device with one update file: the engine of `dfu flash`. The file says the protocol:
/// the registry's entry that recognises it (`ProtocolRegistry.recognise`; an MCUboot image or an
/// nRF Connect SDK `dfu_application.zip` goes over SMP, a Nordic DFU `.zip` package over Nordic
/// Secure DFU); the stages know no protocol.
///
///     let engine = UpdateEngine(image: bytes, imageName: "app.signed.bin", key: key, options: options,
///                               target: .init(connector: connector, peer: peer), hostPower: HostPowerReader().read())
///     let run = engine.start()
///     for await event in run.events { render(event) }
///     let result = await run.result.value          // .success(version) or .failure(DFUError)
///
/// The stages run one at a time, in order (`UpdateStage`; what each does is in `UpdateProcedure`):
/// verify-image → connect → read-device-state → check-preconditions → transfer → activate →
/// reconnect → confirm-version. Each is announced with `.stageStarted` and, when it succeeds,
/// `.stageFinished` with its duration; a failure ends the run with a `DFUError` whose exit status is
/// documented. Events never carry image bytes or key material, and name the device by its
/// shortened identity unless `Target.label` says otherwise.
public struct UpdateEngine: Sendable {
    /// The device and how to reach it.
    public struct Target: Sendable {
        public var connector: any Connector
        public var peer: PeerIdentity
        /// How events and messages name the device; nil: `peer.redacted` (`…:EE:FF`).
        public var label: String?
        /// The device's flash write rate in bytes/s, when known (the virtual device knows it): the
        /// reported ceiling is the lower of it and the link's radio ceiling.
        public var flashRate: Double?
        /// The protocol the device is known to speak before anything is connected (the virtual
        /// device's `protocol=`; a UDP endpoint speaks SMP); nil: its services tell once connected.
        /// An update file for another protocol is then refused before connecting.
        public var speaks: UpdateProtocolName?

        public init(connector: any Connector, peer: PeerIdentity, label: String? = nil, flashRate: Double? = nil,
                    speaks: UpdateProtocolName? = nil) {
            self.connector = connector
            self.peer = peer
            self.label = label
            self.flashRate = flashRate
            self.speaks = speaks
        }
    }

    /// The signed image file, whole.
    public var image: [UInt8]
    /// The image as the user named it (a file name), for messages.
    public var imageName: String
    /// The key to check the signature with; nil: not checked (a warning says so).
    public var key: PublicKey?
    public var options: UpdateOptions
    public var target: Target
    public var hostPower: HostPower
    /// Time base of request and chunk deadlines, stage durations and rates (see `EngineClock`).
    public var clock: EngineClock

    public init(image: [UInt8], imageName: String, key: PublicKey?, options: UpdateOptions = UpdateOptions(),
                target: Target, hostPower: HostPower, clock: EngineClock = .continuous) {
        self.image = image
        self.imageName = imageName
        self.key = key
        self.options = options
        self.target = target
        self.hostPower = hostPower
        self.clock = clock
    }

    /// Runs the update in the calling task. `emit` gets every event in order, one at a time
    /// (never two calls at once, though they may come from different tasks). Returns the version
    /// now on the device (for `upload-only`: the version uploaded to its second slot).
    public func run(emit: @escaping @Sendable (UpdateEvent) -> Void) async -> Result<ImageVersion, DFUError> {
        let serialized = Locked(())
        let serializedEmit: @Sendable (UpdateEvent) -> Void = { event in serialized.withLock { _ in emit(event) } }
        guard let recognised = ProtocolRegistry.recognise(image) else {
            return .failure(.internalError("no registered protocol takes \(imageName)"))
        }
        return await recognised.entry.updateProtocol.run(self, serializedEmit)
    }

    /// Runs the update in a new task: its events as a stream (finished when the run ends) and its
    /// result.
    public func start() -> UpdateRun {
        let (events, continuation) = AsyncStream.makeStream(of: UpdateEvent.self)
        let result = Task {
            let result = await run { continuation.yield($0) }
            continuation.finish()
            return result
        }
        return UpdateRun(events: events, result: result)
    }
}

/// An update started with `UpdateEngine.start()`.
public struct UpdateRun: Sendable {
    /// Every event, in order; finishes when the update ended.
    public let events: AsyncStream<UpdateEvent>
    /// The outcome.
    public let result: Task<Result<ImageVersion, DFUError>, Never>
}
