import Transport

/// What SMP's read-device-state stage learned: the facts the preconditions and the user see, the
/// image list the plan is made from, and how the upload is sized.
struct SMPDeviceSnapshot: Sendable {
    var facts: DeviceFacts
    var images: ImageStateResponse
    /// Upload requests in flight: `buf_count − 1`, or 1 when the device does not say.
    var window: Int
    var bootloaderMode: MCUbootMode?
    /// The largest image each image index takes, from slot info (empty when the device has none).
    var slotSizes: [UInt64: Int] = [:]
    /// The image indexes slot info lists; nil when the device does not answer it.
    var slotInfoIndexes: Set<UInt64>?
}

/// What the engine asks an SMP device before the transfer: at connect time the MCUmgr parameters
/// (and whether the device reassembles packets larger than one write); in the read-device-state
/// stage the image list, slot sizes and the bootloader mode (battery and firmware revision are
/// `StandardGATTReader`'s). Only the image list is required; the other answers are optional in
/// Zephyr's Kconfig, so a refusal or silence is noted and the update goes on with safe defaults.
///
/// Nothing these requests ask changes the device, so a link lost before an answer (the request or
/// the answer lost, or a write that failed as the link went down) is made again within
/// `--connect-timeout` and the reads start over, as a failed connect is retried.
struct SMPDeviceStateReader {
    let connection: DeviceConnection<SMPSession>
    let context: SessionContext

    private var device: String { context.device }
    private var requestTimeout: Duration { context.deadlines.request }
    private func log(_ message: String) { context.log(message) }

    /// The most requests kept in flight whatever `buf_count` says: a device claiming thousands of
    /// buffers must not make us exhaust the 256 SMP sequence numbers.
    static let maximumWindow = 64
    /// How long the reassembly probe waits: a device that reassembles answers within a round trip,
    /// one that does not never answers.
    static let probeTimeout: Duration = .seconds(2)

    /// Link losses the reads survive, each followed by a new link.
    static let linkLossAllowance = 3

    /// Over a connectionless link, how long the first try of the first request waits before it is
    /// sent again, so one lost datagram costs a second, not the whole connect timeout. Each later
    /// try waits twice as long, up to `firstAnswerLongestWait`: a device that was out of reach (an
    /// outage, a device still booting) is heard within that of its return, where an unbounded
    /// doubling cost up to as long again as it was gone (out for 3 s: heard after 7).
    static let firstAnswerRetry: Duration = .seconds(1)
    static let firstAnswerLongestWait: Duration = .seconds(2)

    /// How long try `index` (from 0) of the first request waits for its answer.
    static func firstAnswerWait(try index: Int) -> Duration {
        var wait = firstAnswerRetry
        for _ in 0..<max(0, index) where wait < firstAnswerLongestWait { wait *= 2 }
        return min(wait, firstAnswerLongestWait)
    }

    /// What the connect stage learned about sizing SMP for this device.
    struct Negotiated: Sendable {
        var bufferSize: Int?
        var bufferCount: Int?
        /// Upload requests in flight: `buf_count − 1` (at most `maximumWindow`), 1 when unknown.
        var window: Int
    }

    /// The MCUmgr parameters, and whether the device reassembles packets larger than one write;
    /// the session's packet budget is set from them. Part of connecting: until this is known, no
    /// request larger than one write may be sent. Over a connectionless link (UDP) the device is
    /// connected only once it answers this request, within the connect deadline (`firstAnswer`).
    func negotiate() async throws(DFUError) -> Negotiated {
        try await againAfterLinkLoss { () async throws(DFUError) in try await negotiateOnce() }
    }

    private func negotiateOnce() async throws(DFUError) -> Negotiated {
        var negotiated = Negotiated(window: 1)
        let answer = connection.link.parameters.isConnectionless
            ? try await firstAnswer(to: MCUmgrParametersRequest(), "the MCUmgr parameters request")
            : await request(MCUmgrParametersRequest())
        switch answer {
        case .success(let parameters):
            negotiated.bufferSize = Int(clamping: parameters.bufferSize)
            negotiated.bufferCount = Int(clamping: parameters.bufferCount)
            let window = ImageUploadConfiguration.window(bufferCount: parameters.bufferCount)
            negotiated.window = min(window, Self.maximumWindow)
        case .failure(.refused(let error)):
            log("no MCUmgr parameters (\(error)); one packet per write, one request in flight")
        case .failure(.timeout):
            log("no answer to the MCUmgr parameters request; one packet per write, one request in flight")
        case .failure(let error):
            throw await failure("the MCUmgr parameters request", error)
        }
        let reassembles = try await deviceReassembles(bufferSize: negotiated.bufferSize, link: connection.link)
        await connection.client.setDeviceLimits(bufferSize: negotiated.bufferSize, reassembles: reassembles)
        if let budget = await connection.client.budget { log("SMP: \(budget)") }
        return negotiated
    }

    /// The image list, slot size and bootloader mode; the running version and the slot size are
    /// those of image index `image` (0: the application).
    func readImageState(_ negotiated: Negotiated, image index: UInt64 = 0) async throws(DFUError) -> SMPDeviceSnapshot {
        try await againAfterLinkLoss { () async throws(DFUError) in try await readImageStateOnce(negotiated, image: index) }
    }

    private func readImageStateOnce(_ negotiated: Negotiated, image index: UInt64) async throws(DFUError) -> SMPDeviceSnapshot {
        var facts = DeviceFacts(bufferSize: negotiated.bufferSize, bufferCount: negotiated.bufferCount)

        // A SUIT device answers its own group; its image list (if any) is not MCUboot's slots.
        if try await optional(SUITManifestListRequest(), "SUIT manifest list",
                              timeout: min(Self.probeTimeout, requestTimeout)) != nil {
            facts.unsupported = "the device updates with SUIT (it answers SMP group 66, SUIT management), not MCUboot "
                + "image slots"
            facts.bootloaderMode = "SUIT"
            return SMPDeviceSnapshot(facts: facts, images: ImageStateResponse(images: []), window: negotiated.window,
                                     bootloaderMode: nil)
        }

        let images: ImageStateResponse
        switch await request(ImageStateReadRequest()) {
        case .success(let state): images = state
        case .failure(let error): throw await failure("the image list request", error)
        }
        let running = images.running(image: index)
        facts.runningVersion = running?.imageVersion
        facts.runningHash = running?.hash

        var slotSizes: [UInt64: Int] = [:]
        var slotInfoIndexes: Set<UInt64>?
        if let info = try await optional(ImageSlotInfoRequest(), "slot info") {
            for image in info.images {
                let target = image.slots.first { $0.slot == 1 }
                // The largest image the device accepts, which may be less than the slot (trailer, swap).
                slotSizes[image.image] = (image.maxImageSize ?? target?.size).map { Int(clamping: $0) }
            }
            slotInfoIndexes = Set(info.images.map(\.image))
            facts.slotSize = slotSizes[index]
        }
        var mode: MCUbootMode?
        if let info = try await optional(BootloaderInfoRequest.mode, "bootloader mode") {
            mode = info.mcubootMode
            facts.bootloaderMode = mode?.description ?? info.mode.map { "mode \($0)" }
            if mode == .firmwareLoader {
                facts.unsupported = "the device's MCUboot runs in firmware loader mode (bootloader info mode 7): a "
                    + "separate loader image takes updates, not the application's secondary slot"
            }
        }
        return SMPDeviceSnapshot(facts: facts, images: images, window: negotiated.window, bootloaderMode: mode,
                                 slotSizes: slotSizes, slotInfoIndexes: slotInfoIndexes)
    }

    /// The board the device was built for (OS info, format `i`), when it answers: Zephyr leaves
    /// the command out unless `CONFIG_MCUMGR_GRP_OS_INFO`. Fails only when the link cannot be
    /// restored after a loss.
    func board() async throws(DFUError) -> String? {
        try await againAfterLinkLoss { () async throws(DFUError) in
            switch await request(OSInfoRequest(format: "i"), timeout: min(Self.probeTimeout, requestTimeout)) {
            case .success(let info):
                let board = info.output.trimmingCharacters(in: .whitespaces)
                return board.isEmpty ? nil : board
            case .failure(.linkLost):
                throw await failure("the OS info request", .linkLost)
            case .failure:
                return nil
            }
        }
    }

    // MARK: - Requests

    /// `request` until the device answers it (a refusal is an answer too), sent again with doubling
    /// waits, or the deadline of the connect that made the link passes: exit 5, as a device that
    /// cannot be reached. A UDP socket sends into the void without an error, so this answer is the
    /// only sign that a device is there.
    private func firstAnswer<R: SMPRequest>(to request: R, _ what: String) async throws(DFUError) -> Result<R.Response, SMPClientError> {
        let deadline = connection.firstAnswerDeadline
        var tries = 0
        while true {
            let timeout = min(Self.firstAnswerWait(try: tries), requestTimeout, context.clock.remaining(until: deadline))
            guard timeout > .zero else { break }
            // Sent again here with a longer wait: one attempt each.
            let answer = await self.request(request, timeout: timeout, attempts: 1)
            guard case .failure(.timeout) = answer else { return answer }
            tries += 1
        }
        throw DFUError.deviceUnreachable(
            "\(device) did not answer within the connect timeout (\(context.deadlines.connect)): "
                + "nothing came back to \(what). Check that its SMP server runs at that address and port, then retry "
                + "(or allow more time with --connect-timeout).",
            cause: .link(.timeout))
    }

    /// `read`, started over on a new link after each link loss (at most `linkLossAllowance`); when
    /// no link comes back, the loss's own error.
    func againAfterLinkLoss<T>(_ read: () async throws(DFUError) -> T) async throws(DFUError) -> T {
        var losses = 0
        while true {
            do throws(DFUError) {
                return try await read()
            } catch where error.cause == .smpRequest(.linkLost) && losses < Self.linkLossAllowance {
                losses += 1
                context.warn("the link to \(device) went down while its state was read; reconnecting")
                let result = await connection.reconnect(until: context.clock.reachableBy(context.deadlines.connect),
                                                        log: context.log)
                if case .failure(let failure) = result {
                    log("reconnecting failed: \(failure)")
                    throw error
                }
            }
        }
    }

    func request<R: SMPRequest>(_ request: R, timeout: Duration? = nil,
                                        attempts: Int? = nil) async -> Result<R.Response, SMPClientError> {
        do throws(SMPClientError) {
            return .success(try await connection.client.request(request, timeout: timeout ?? requestTimeout, attempts: attempts))
        } catch {
            return .failure(error)
        }
    }

    /// A request the device may not support: nil when it refuses or stays silent.
    func optional<R: SMPRequest>(_ request: R, _ what: String,
                                         timeout: Duration? = nil) async throws(DFUError) -> R.Response? {
        switch await self.request(request, timeout: timeout) {
        case .success(let response):
            return response
        case .failure(.refused(let error)):
            log("no \(what) (\(error))")
            return nil
        case .failure(.timeout):
            log("no answer to the \(what) request")
            return nil
        case .failure(let error):
            throw await failure("the \(what) request", error)
        }
    }

    func failure(_ what: String, _ error: SMPClientError) async -> DFUError {
        let reason = error == .linkLost ? await connection.lossReason(within: requestTimeout) : nil
        return SMPFailure.beforeTransfer(what, error, device: device, lossReason: reason)
    }

    /// Whether the device collects one SMP packet from several writes. Its `buf_size` alone does
    /// not say (the two Kconfigs are independent, smp-mcuboot.md §1), so an echo 4 bytes longer
    /// than one write is sent: a device that reassembles answers it; one that does not parses the
    /// first write alone and answers `ECORRUPT` (its header announces more than the write holds),
    /// and drops the 4-byte second write unanswered (too short for a header), so no reply can
    /// arrive under a sequence number we never used.
    /// A link lost before the answer says nothing about reassembly: that is the loss's error.
    private func deviceReassembles(bufferSize: Int?, link: any Link) async throws(DFUError) -> Bool {
        let maxWrite = link.parameters.maxWriteWithoutResponse
        // Over UDP each datagram is parsed as one whole packet (Zephyr's UDP transport).
        guard !link.parameters.writesAreWholeMessages, let bufferSize, bufferSize >= maxWrite + 4,
              let text = Self.echoText(packetSize: maxWrite + 4) else { return false }
        await connection.client.setDeviceLimits(bufferSize: bufferSize, reassembles: true)
        let reply = await request(OSEchoRequest(text: text), timeout: min(Self.probeTimeout, requestTimeout))
        if case .failure(.linkLost) = reply { throw await failure("the reassembly probe (an echo)", .linkLost) }
        if case .success(let echo) = reply, echo.text == text {
            log("device reassembles packets up to \(bufferSize) bytes")
            return true
        }
        log("device does not reassemble a \(maxWrite + 4)-byte echo; one packet per write")
        return false
    }

    /// Echo text that makes the whole request exactly `packetSize` bytes: the 8-byte header, then
    /// `{"d": text}` (map 1 byte, key 2, text head 1–3 by the text's length).
    static func echoText(packetSize: Int) -> String? {
        for length in stride(from: packetSize - 14, through: packetSize - 12, by: 1) where length >= 0 {
            let head = length < 24 ? 1 : length < 256 ? 2 : 3
            if SMPHeader.size + 3 + head + length == packetSize {
                return String(repeating: "~", count: length)
            }
        }
        return nil
    }
}
