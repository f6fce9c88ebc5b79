/// A link lost after the transfer, before the device answered: the activate and confirm-version
/// stages reconnect and find out from the device what it did (the image list), instead of ending
/// the run. The request, or only its answer, may have been lost; a write that failed because the
/// link was going down ends the same way (`SMPSession` takes it as the link's loss).
extension SMPUpdateSession {
    /// Where the link was lost: what the run ends with when it cannot be restored.
    enum LinkLossStage {
        /// Before the upload began: a second run resumes it (exit 6).
        case transfer
        /// Marking or resetting: the image is on the device, a second run skips the upload (exit 6).
        case activate
        /// After the reboot (exit 8, as when the device does not come back at all).
        case confirmVersion
    }

    /// Link losses one image's check after the reboot survives.
    static var linkLossAllowance: Int { SMPActivation.linkLossAllowance }
    /// Resets sent again to a device that came back without having taken the first.
    static let repeatedResets = 1

    /// Reconnects within `--connect-timeout` after the link was lost before the device answered
    /// `request`, once the loss is counted (the request saw it first).
    func restoreLink(lostBefore request: String, stage: LinkLossStage) async throws(DFUError) {
        try await restoreLink(lost: "before it answered \(request)", stage: stage)
    }

    /// The same, for a link lost `when` (the words after "the link to … was lost").
    func restoreLink(lost when: String, stage: LinkLossStage) async throws(DFUError) {
        let reason = await connection.lossReason(within: deadlines.request)
        let device = context.device
        context.warn("the link to \(device) was lost \(when)" + (reason.map { " (\($0))" } ?? "") + "; reconnecting")
        let result = await connection.reconnect(until: context.clock.reachableBy(deadlines.connect), log: context.log)
        guard case .failure(let failure) = result else {
            context.log("reconnected to \(device)")
            return
        }
        let what = "the link to \(device) was lost \(when) and could not be restored (\(failure))."
        switch stage {
        case .transfer:
            throw .transferInterrupted("\(what) \(EngineFailure.rerun)", cause: failure.cause)
        case .activate:
            throw .transferInterrupted("\(what) \(EngineFailure.rerunWithImageOnDevice)", cause: failure.cause)
        case .confirmVersion:
            throw .postRebootCheckFailed("\(device) came back after the reset, but \(what) Run the same command again "
                                         + "to check the image (and confirm it).", cause: failure.cause)
        }
    }

    /// One image's check after the reboot, run again after each link loss (reconnecting first;
    /// the check reads before it writes) and after resetting a device that has not reset.
    func checking(_ check: SMPVersionCheck, resetting activation: SMPActivation,
                  readUntil: inout ContinuousClock.Instant) async throws(DFUError) -> ImageVersion {
        var linkLosses = 0
        var resets = 0
        while true {
            do throws(DFUError) {
                switch try await check.run(readUntil: readUntil) {
                case .running(let version):
                    return version
                case .awaitingReset where resets < Self.repeatedResets:
                    resets += 1
                    readUntil = try await resetAgain(activation)
                case .awaitingReset:
                    throw .postRebootCheckFailed("\(context.device) still runs its previous image with the new one "
                                                 + "pending after \(resets + 1) resets: it does not restart when asked. "
                                                 + "Check the device.")
                }
            } catch where error.cause == .smpRequest(.linkLost) && linkLosses < Self.linkLossAllowance {
                linkLosses += 1
                try await restoreLink(lost: "during the check after the reboot", stage: .confirmVersion)
            }
        }
    }

    /// The device came back still running its previous image with the new one pending: the reset
    /// was lost with the link, or the link came back before the device reset. Resets it again and
    /// waits for the reboot; returns the new reboot deadline.
    private func resetAgain(_ activation: SMPActivation) async throws(DFUError) -> ContinuousClock.Instant {
        context.warn("\(context.device) has not restarted since the image was marked (the reset or its answer was lost "
                     + "with the link); resetting it again")
        let deadline = context.clock.reachableBy(deadlines.reboot)
        // nil: it restarted by itself meanwhile; the check looks again.
        guard let lossesBefore = try await reset(with: activation) else { return deadline }
        _ = try await RebootWait(connection: connection, session: self, context: context)
            .run(lossesBefore: lossesBefore, deadline: deadline)
        context.log("reconnected after the second reset")
        return deadline
    }
}
