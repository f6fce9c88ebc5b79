import Transport

/// Re-synchronising a device that fell silent mid-upload on a link that cannot report its loss
/// (UDP, a serial line): BLE would say the link dropped and the engine would reconnect, but here
/// the only sign is silence. Rather than resending the same chunk until the failure budget ends
/// the run, the upload asks in rounds until `resyncAfterSilence` has passed: an echo (a device
/// that answers it is alive), then the upload's resume packet: off 0 with the same `sha` and a
/// header's worth of data, which Zephyr answers with its offset while it holds the session
/// (zephyr_img_mgmt.c `img_mgmt_upload_inspect`, same sha → resume) and by starting over after a
/// reset. The resume packet goes even when the echo is not answered: echo is optional in Zephyr
/// (`CONFIG_MCUMGR_GRP_OS_ECHO`).
extension ImageUploadCore {
    mutating func beginResync(now: MonotonicInstant, into actions: inout [Action]) {
        guard let allowance = configuration.resyncAfterSilence else { return }
        statistics.resyncs += 1
        resyncUntil = now + allowance
        // Replies to anything sent before the silence can no longer move the upload backwards.
        window.startEpoch()
        sendEcho(now: now, into: &actions)
    }

    /// One more round, or the end when the resync's time is up.
    mutating func resyncRound(now: MonotonicInstant, into actions: inout [Action]) {
        guard let until = resyncUntil, now < until else {
            fail(.deviceSilent(offset: progress.acknowledged, after: configuration.resyncAfterSilence ?? .zero),
                 into: &actions)
            return
        }
        sendEcho(now: now, into: &actions)
    }

    /// The echo's answer (or its deadline): the resume packet follows either way while time
    /// remains; a lost link parks the upload as anywhere else.
    mutating func echoed(_ result: Result<SMPPacket, SMPClientError>, now: MonotonicInstant, into actions: inout [Action]) {
        if case .failure(.linkLost) = result {
            park(now: now, into: &actions)
            return
        }
        if case .failure(.timeout) = result, let until = resyncUntil, now >= until {
            resyncRound(now: now, into: &actions)
            return
        }
        sendFirstPacket(.resync(from: progress.acknowledged), now: now, into: &actions)
    }

    private mutating func sendEcho(now: MonotonicInstant, into actions: inout [Action]) {
        let id = allocateID()
        let left = now.duration(to: resyncUntil ?? now)
        state = .resyncing(echo: id, until: resyncUntil ?? now)
        let timeout = max(.milliseconds(1), min(configuration.chunkTimeout, left))
        drive(.send(id, SMPRequestMessage(OSEchoRequest(text: "dfu")), timeout: timeout), now: now, into: &actions)
    }
}
