extension SMPOperator {
    /// Resets the device (OS reset). The device answers first and reboots a moment later
    /// (Zephyr's CONFIG_MCUMGR_GRP_OS_RESET_MS). `force` overrides an application that refuses
    /// with busy. With `waitForReboot`, waits until the device is back (the link dropped and was
    /// made again, or over UDP: it went silent and answers again), as `dfu flash` waits after its
    /// reset, within `deadlines.reboot`; `.rebooting` is emitted when the reset was answered and
    /// `.reconnected` when the device is back.
    ///
    /// No answer (a timeout, or the link lost first) is a failure: the request or only its answer
    /// may have been lost, so whether the device reset is not known, and sending it again could
    /// reset it twice (the second boot reverts an image under test).
    public func reset(force: Bool = false, waitForReboot: Bool = false) async throws(DFUError) {
        try await run("'dfu reset'") { link async throws(DFUError) in
            let connection = link.connection
            let lossesBefore = await connection.losses.count
            do throws(SMPClientError) {
                _ = try await connection.client.request(OSResetRequest(force: force ? true : nil), timeout: deadlines.request,
                                                        attempts: 1)
            } catch {
                switch error {
                case .refused(let smp) where smp.mcumgrError == .busy:
                    throw SMPOperationFailure.resetRefusedBusy(device: device).caused(by: .smpRequest(error))
                case .timeout, .linkLost, .closed:
                    let reason = error == .linkLost ? await connection.lossReason(within: deadlines.request) : nil
                    throw SMPOperationFailure.resetUnanswered(error, reason: reason, device: device)
                default:
                    throw await link.failure("the reset request", error)
                }
            }
            emit(.rebooting)
            guard waitForReboot else { return }
            let session = SMPUpdateSession(connection: connection, context: link.context, negotiated: link.negotiated)
            _ = try await RebootWait(connection: connection, session: session, context: link.context)
                .run(lossesBefore: lossesBefore, deadline: clock.reachableBy(deadlines.reboot))
            emit(.reconnected(ConnectionSummary(link: connection.link, device: device, identity: target.peer.rawValue, window: link.negotiated.window,
                                                flashRate: target.flashRate)))
        }
    }
}
