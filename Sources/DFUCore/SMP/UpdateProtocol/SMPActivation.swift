import Transport

/// SMP's activate stage (smp-mcuboot.md §4, steps 3–4): mark the uploaded image as the mode asks,
/// then reset the device. Waiting for the reboot is the engine's (`RebootWait`): MCUboot may swap
/// for many seconds before the application advertises again.
struct SMPActivation: Sendable {
    let session: SMPSession
    let image: PreparedImage
    /// The image index marked: its slot 0 runs the image once the device has booted it.
    var imageIndex: UInt64 = 0
    let mode: ActivationMode
    let device: String
    let requestTimeout: Duration
    let log: @Sendable (String) -> Void
    /// Reconnects after the link went down before the device answered the request named; throws
    /// what the run ends with when no link comes back.
    let restoreLink: @Sendable (_ request: String) async throws(DFUError) -> Void
    /// A refused mark is fine when the image is already pending (RAM load, mode 6).
    var acceptsAlreadyPending = false
    /// Says what the user should know: the device restarted on its own.
    var warn: @Sendable (String) -> Void = { _ in }

    /// Link losses a mark survives (each followed by a reconnect and a look at the image list).
    static let linkLossAllowance = 3

    /// How a mark ended.
    enum Marked: Sendable, Equatable {
        /// The device lists the image pending for its next boot: the reset follows.
        case pending
        /// The device took the mark and restarted by itself (a watchdog, a brown-out, a fault)
        /// before answering: MCUboot has installed the image, which runs now (on test, unless it
        /// was marked permanent). No reset may follow: a reset during a test boot reverts it.
        case restarted
    }

    /// State write for the mode: `{hash, confirm: false}` marks the image for a test boot (MCUboot
    /// reverts it on the reset after next unless confirmed); `{hash, confirm: true}` makes it
    /// permanent. The device's answer must show the image pending.
    ///
    /// A link lost before the answer says nothing of whether the device took the mark (the request
    /// or only its answer may have been lost): after reconnecting, the image list tells, and the
    /// mark is sent again only when the image is not pending. When the list shows the image
    /// running, the device took the mark and restarted before answering (`Marked.restarted`).
    /// Over a link that cannot report a loss the same shows as a refusal of the mark sent again
    /// (Zephyr's IMAGE_SETTING_TEST_TO_ACTIVE_DENIED: the image is the one it runs), so a refused
    /// mark is looked at the same way before it is taken for a refusal.
    func mark() async throws(DFUError) -> Marked {
        let permanent = mode == .confirmOnly
        let what = permanent ? "the request to confirm the new image" : "the request to mark the new image for test"
        var linkLosses = 0
        while true {
            var state: ImageStateResponse
            do throws(SMPClientError) {
                state = try await session.request(ImageStateWriteRequest(hash: image.slotHash, confirm: permanent),
                                                  timeout: requestTimeout)
            } catch .linkLost where linkLosses < Self.linkLossAllowance {
                linkLosses += 1
                try await restoreLink(what)
                if let listed = try? await session.request(ImageStateReadRequest(), timeout: requestTimeout) {
                    if isPending(in: listed) {
                        log("the device had taken the mark before the link went down: its image list shows the image pending")
                        return .pending
                    }
                    if runsNewImage(listed) { return restarted() }
                }
                continue
            } catch {
                if case .refused = error, await runsNewImage() { return restarted() }
                state = try await alreadyPending(after: error, what: what)
            }
            guard isPending(in: state) else {
                throw .deviceRejected("\(device) accepted \(what) but does not list the new image as pending; it would not "
                                      + "boot it. Check the device's MCUboot configuration.")
            }
            return .pending
        }
    }

    private func isPending(in state: ImageStateResponse) -> Bool {
        state.images.contains { $0.hash == image.slotHash && $0.pending }
    }

    /// Whether the image list shows the new image running in its index's slot 0 (installed:
    /// its DECOMP_SHA for a compressed image).
    func runsNewImage(_ state: ImageStateResponse) -> Bool {
        state.running(image: imageIndex)?.hash == image.installedHash
    }

    /// The same, read from the device now; false when it does not answer.
    func runsNewImage() async -> Bool {
        guard let listed = try? await session.request(ImageStateReadRequest(), timeout: requestTimeout) else { return false }
        return runsNewImage(listed)
    }

    private func restarted() -> Marked {
        warn("\(device) restarted by itself after it took the mark (before answering): it already runs the new image, "
             + "so it is not reset again")
        return .restarted
    }

    /// RAM load without revert (bootloader mode 6 does not tell which): the newer image is already
    /// the next boot, for good, and Zephyr refuses a test of it. Any other failure is the mark's.
    private func alreadyPending(after error: SMPClientError, what: String) async throws(DFUError) -> ImageStateResponse {
        guard acceptsAlreadyPending, case .refused(let refusal) = error, refusal.imageError == .imageAlreadyPending,
              let listed = try? await session.request(ImageStateReadRequest(), timeout: requestTimeout),
              isPending(in: listed)
        else { throw SMPFailure.activation(what, error, device: device) }
        log("the device already boots the new image next, for good (it refused the mark as already pending)")
        return listed
    }

    /// How long the reset's reply is waited for: Zephyr answers at once and resets
    /// `CONFIG_MCUMGR_GRP_OS_RESET_MS` (250 ms) later. Sent once, and not waited for long: over a
    /// link without a connection the reboot is seen as the device's silence, which a long wait (or
    /// a second try) for a lost reply could miss entirely on a device that boots fast.
    static let resetReplyTimeout: Duration = .seconds(2)

    /// Sends the reset; a reply lost to the reboot is fine.
    func reset() async throws(DFUError) {
        let timeout = min(requestTimeout, Self.resetReplyTimeout)
        do throws(SMPClientError) {
            _ = try await session.request(OSResetRequest(), timeout: timeout, attempts: 1)
        } catch {
            switch error {
            case .refused(let smp) where smp.mcumgrError == .busy:
                // The application vetoed the reset (a hook returned busy): `force` overrides it.
                log("device answered the reset with busy; sending it again with force")
                do throws(SMPClientError) {
                    _ = try await session.request(OSResetRequest(force: true), timeout: timeout, attempts: 1)
                } catch {
                    try Self.tolerateLostReply(error, device: device)
                }
            default:
                try Self.tolerateLostReply(error, device: device)
            }
        }
    }

    /// A reset whose reply was lost (the link dropped, or the device rebooted too fast) is still a
    /// reset, or the device comes back without having taken it: the wait for the device to come
    /// back, then the image list after it, decide (`SMPVersionCheck.Outcome.awaitingReset`).
    private static func tolerateLostReply(_ error: SMPClientError, device: String) throws(DFUError) {
        switch error {
        case .linkLost, .timeout: return
        default: throw SMPFailure.activation("the reset request", error, device: device)
        }
    }
}
