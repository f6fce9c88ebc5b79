import Transport

/// SMP on one device for the rest of a run: the image list and slot facts, the upload, mark and
/// reset, and the check after the reboot. Each stage's details are in its own type
/// (`SMPDeviceStateReader`, `SMPTransfer`, `SMPActivation`, `SMPVersionCheck`).
struct SMPUpdateSession: UpdateSession {
    let connection: DeviceConnection<SMPSession>
    let context: SessionContext
    let negotiated: SMPDeviceStateReader.Negotiated

    var window: Int { negotiated.window }
    private var session: SMPSession { connection.client }
    private var deadlines: UpdateOptions.Deadlines { context.deadlines }
    /// The image index this run updates (0 unless the user asked for another).
    private var imageIndex: UInt64 { context.options.imageIndex ?? 0 }

    func readState(for update: PreparedImage) async throws(DFUError) -> SessionState {
        let reader = SMPDeviceStateReader(connection: connection, device: context.device, requestTimeout: deadlines.request,
                                          log: context.log, warn: context.warn)
        let snapshot = try await reader.readImageState(negotiated, image: imageIndex)
        if imageIndex > 0, snapshot.facts.unsupported == nil, !snapshot.images.images.contains(where: { ($0.image ?? 0) == imageIndex }) {
            throw .deviceRejected("\(context.device) lists no image \(imageIndex) (its image list has "
                                  + "\(Set(snapshot.images.images.map { $0.image ?? 0 }).count) image index(es)); "
                                  + "check --image against 'dfu info'.")
        }
        var state = SessionState(facts: snapshot.facts,
                                 plan: .decide(slotHash: update.slotHash, state: snapshot.images, image: imageIndex))
        if let mode = snapshot.bootloaderMode, !mode.supportsRevert {
            state.revertWarning = "the bootloader runs in \(mode) mode, which cannot roll back: the test boot makes the image permanent"
        }
        return state
    }

    /// SMP's application takes the upload itself.
    func enterUpdateMode(for update: PreparedImage) async throws(DFUError) {}

    /// An MCUboot image is one part.
    func transfer(_ update: PreparedImage, part: UpdatePart,
                  progress: @escaping @Sendable (TransferCount) -> Void) async throws(DFUError) -> PartTransfer {
        let configuration = ImageUploadConfiguration(
            window: window, firstChunkTimeout: deadlines.firstChunk(forImageOf: update.bytes.count),
            chunkTimeout: deadlines.chunk,
            lastChunkTimeout: deadlines.lastChunk, linkRestoreTimeout: deadlines.connect)
        context.log("uploading \(update.bytes.count) bytes, \(window) request\(window == 1 ? "" : "s") in flight")
        try await SMPTransfer(session: session, image: update, imageNumber: context.options.imageIndex,
                              upgradeOnly: context.options.requireNewer, configuration: configuration).run(progress: progress)
        return .sent
    }

    func abandonTransfer() async {
        await session.close()
    }

    /// Mark and reset are requests.
    var activationNeedsLink: Bool { true }

    func activate(_ update: PreparedImage, mode: ActivationMode, losses: LinkLossMonitor) async throws(DFUError) -> Int {
        let activation = SMPActivation(session: session, image: update, mode: mode, device: context.device,
                                       requestTimeout: deadlines.request, log: context.log)
        try await activation.mark()
        let lossesBefore = await losses.count
        try await activation.reset()
        return lossesBefore
    }

    func probe(timeout: Duration) async -> ProbeResult {
        do throws(SMPClientError) {
            _ = try await session.request(OSEchoRequest(text: "dfu"), timeout: min(timeout, deadlines.request))
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

    func confirm(_ update: PreparedImage, mode: ActivationMode, before: SessionState,
                 readUntil: ContinuousClock.Instant) async throws(DFUError) -> ImageVersion {
        try await SMPVersionCheck(session: session, clock: context.clock, image: update, mode: mode,
                                  imageIndex: imageIndex,
                                  previousHash: before.facts.runningHash, previousVersion: before.facts.runningVersion,
                                  device: context.device, requestTimeout: deadlines.request, emit: context.emit)
            .run(readUntil: readUntil)
    }
}
