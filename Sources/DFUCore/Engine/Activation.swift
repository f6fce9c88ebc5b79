import Transport

/// The activate and reconnect stages (smp-mcuboot.md §4, steps 3–5): mark the uploaded image as the
/// mode asks, reset the device, wait for the link to drop, then reconnect until the device is back
/// (MCUboot may swap for many seconds before the application advertises again).
struct Activation: Sendable {
    let connection: DeviceConnection
    let image: PreparedImage
    let mode: ActivationMode
    let device: String
    let requestTimeout: Duration
    let emit: @Sendable (UpdateEvent) -> Void

    /// Over a link that cannot report the drop (UDP has no connection), the pause between echoes
    /// while waiting for the device to go quiet. Short against any real reboot (MCUboot alone takes
    /// longer), so a device cannot go down and come back unseen between two echoes.
    static let silencePollInterval: Duration = .milliseconds(100)

    /// State write for the mode: `{hash, confirm: false}` marks the image for a test boot (MCUboot
    /// reverts it on the reset after next unless confirmed); `{hash, confirm: true}` makes it
    /// permanent. The device's answer must show the image pending.
    func mark() async throws(DFUError) {
        let permanent = mode == .confirmOnly
        let what = permanent ? "the request to confirm the new image" : "the request to mark the new image for test"
        let state: ImageStateResponse
        do throws(SMPClientError) {
            state = try await connection.session.request(ImageStateWriteRequest(hash: image.slotHash, confirm: permanent),
                                                         timeout: requestTimeout)
        } catch {
            throw EngineFailure.activation(what, error, device: device)
        }
        guard let slot = state.images.first(where: { $0.hash == image.slotHash }), slot.pending else {
            throw .deviceRejected("\(device) accepted \(what) but does not list the new image as pending; it would not "
                                  + "boot it. Check the device's MCUboot configuration.")
        }
    }

    /// Sends the reset and returns the number of link losses seen before it, so the wait for the
    /// drop counts only the drop the reset causes.
    func reset() async throws(DFUError) -> Int {
        let lossesBefore = await connection.losses.count
        do throws(SMPClientError) {
            _ = try await connection.session.request(OSResetRequest(), timeout: requestTimeout)
        } catch {
            switch error {
            case .refused(let smp) where smp.mcumgrError == .busy:
                // The application vetoed the reset (a hook returned busy): `force` overrides it.
                emit(.log("device answered the reset with busy; sending it again with force"))
                do throws(SMPClientError) {
                    _ = try await connection.session.request(OSResetRequest(force: true), timeout: requestTimeout)
                } catch {
                    try Self.tolerateLostReply(error, device: device)
                }
            default:
                try Self.tolerateLostReply(error, device: device)
            }
        }
        return lossesBefore
    }

    /// A reset whose reply was lost (the link dropped, or the device rebooted too fast) is still a
    /// reset; the wait for the device to come back decides.
    private static func tolerateLostReply(_ error: SMPClientError, device: String) throws(DFUError) {
        switch error {
        case .linkLost, .timeout: return
        default: throw EngineFailure.activation("the reset request", error, device: device)
        }
    }

    /// Waits until the device has dropped the link for its reboot, then reconnects until `deadline`
    /// (real time) and returns the attempt that succeeded.
    func awaitReboot(lossesBefore: Int, deadline: ContinuousClock.Instant) async throws(DFUError) -> Int {
        let link = connection.link
        if link.parameters.isConnectionless {
            // Nothing will drop: Zephyr resets CONFIG_MCUMGR_GRP_OS_RESET_MS after its reply (250 ms
            // by default, but any value), so no fixed pause proves the reset. The device is down once
            // it stops answering; then let go of the old socket ourselves.
            try await waitUntilSilent(until: deadline)
            await link.disconnect()
        }
        guard let reason = await connection.losses.waitForLoss(beyond: lossesBefore, until: deadline) else {
            throw .postRebootCheckFailed("\(device) accepted the reset but did not restart within the reboot timeout. "
                                         + "Check the device; allow more time with --reboot-timeout.")
        }
        emit(.log("link dropped for the reboot (\(reason))"))
        switch await connection.reconnect(until: deadline, log: { emit(.log($0)) }) {
        case .success(let attempt):
            if link.parameters.isConnectionless { try await pollUntilAnswering(until: deadline) }
            return attempt
        case .failure(.noSMP(let problem)):
            throw .postRebootCheckFailed("\(device) came back without SMP: \(problem). The new image does not run MCUmgr; "
                                         + "MCUboot reverts a test image on the next reset.")
        case .failure(.link(.timeout)):
            throw Self.notBack(device)
        case .failure(.link(.security(let failure))):
            // It came back without our bond (a new address, or a factory image that lost its keys).
            throw EngineFailure.security(failure, device: device)
        case .failure(.link(let error)):
            throw .postRebootCheckFailed("could not reconnect to \(device) after the reset: \(error)")
        }
    }
}

extension Activation {
    /// How long one echo waits while the device may still be swapping: short, so the first answer
    /// after the swap is seen soon; the reboot deadline bounds the whole wait.
    static let pollTimeout: Duration = .seconds(1)

    static func notBack(_ device: String) -> DFUError {
        .postRebootCheckFailed("\(device) did not come back after the reset within the reboot timeout. It may still be "
                               + "swapping images (allow more time with --reboot-timeout), or the new image does not start.")
    }

    /// Over a connectionless link: echoes until one goes unanswered (or the socket reports the
    /// peer gone), which shows the reset has happened. A device that answers past the deadline
    /// never reset.
    private func waitUntilSilent(until deadline: ContinuousClock.Instant) async throws(DFUError) {
        while ContinuousClock.now < deadline {
            do throws(SMPClientError) {
                _ = try await connection.session.request(OSEchoRequest(text: "dfu"), timeout: min(Self.pollTimeout, requestTimeout))
            } catch {
                switch error {
                case .timeout, .linkLost: return
                default: break  // it answered, if only with an error: still up
                }
            }
            try? await Task.sleep(for: Self.silencePollInterval)
        }
        throw .postRebootCheckFailed("\(device) accepted the reset but kept answering until the reboot timeout: it did not "
                                     + "restart. Check the device; allow more time with --reboot-timeout.")
    }

    /// Over a connectionless link the new "link" is up at once; the device is back when it answers.
    private func pollUntilAnswering(until deadline: ContinuousClock.Instant) async throws(DFUError) {
        while true {
            do throws(SMPClientError) {
                _ = try await connection.session.request(OSEchoRequest(text: "dfu"), timeout: min(Self.pollTimeout, requestTimeout))
                return
            } catch {
                if case .timeout = error, ContinuousClock.now < deadline { continue }
                if case .timeout = error {
                    throw Self.notBack(device)
                }
                throw EngineFailure.afterReboot("the first request after the reset", error, device: device)
            }
        }
    }
}
