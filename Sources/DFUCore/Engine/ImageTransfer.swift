import Transport

/// The transfer stage: the upload through `SMPSession`, turned into progress events with a rate, and
/// kept alive across link losses. The upload core parks when the link goes; this stage reconnects
/// (capped backoff, until `reconnectAllowance` has passed) and attaches the new link, after which
/// the core resumes from the device's offset (the off-0 probe with the same `sha`), unless the image
/// list it reads first shows slot 1 already holding the image.
struct ImageTransfer: Sendable {
    let connection: DeviceConnection
    let image: PreparedImage
    let configuration: ImageUploadConfiguration
    let clock: EngineClock
    let device: String
    /// How long (real time) one reconnection may take.
    let reconnectAllowance: Duration
    let emit: @Sendable (UpdateEvent) -> Void

    func run() async throws(DFUError) {
        // With the slot hash, the core reads the image list on each new link before resuming: a
        // device that wrote the last chunk (its reply lost) and closed its session is done.
        let job = ImageUploadJob(image: image.bytes, sha256: image.fileSHA256, slotHash: image.slotHash)
        // The attempt that reattached the link, until the next progress reports where it resumed.
        let pendingResume = Locked<Int?>(nil)
        // Why reconnecting failed, to explain the upload's end.
        let reconnectFailure = Locked<String?>(nil)
        let lossesBefore = await connection.losses.count
        let start = clock.now
        let stream = await connection.session.upload(job, configuration: configuration)

        let outcome: Result<Void, DFUError> = await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await keepConnected(after: lossesBefore, pendingResume: pendingResume, failure: reconnectFailure)
            }
            defer { group.cancelAll() }
            var meter = TransferRateMeter()
            var anyAcknowledged = false
            do {
                for try await progress in stream {
                    let now = clock.now
                    let acknowledged = Int(clamping: progress.acknowledged)
                    // The core announces 0 when the first packet goes out; the first progress event
                    // is the device's first answer, so its `elapsed` measures the erase wait.
                    if !anyAcknowledged && acknowledged == 0 { continue }
                    anyAcknowledged = true
                    if let attempt = pendingResume.take() {
                        emit(.resumed(offset: acknowledged, attempt: attempt))
                    }
                    emit(.progress(TransferProgress(acknowledged: acknowledged, total: Int(clamping: progress.total),
                                                    elapsed: now - start, rate: meter.record(acknowledged: acknowledged, at: now))))
                }
                return .success(())
            } catch {
                return .failure(explain(error, reconnectFailure: reconnectFailure.withLock { $0 }))
            }
        }
        try outcome.get()
    }

    /// Waits for link losses and reconnects after each. A reconnection that cannot succeed (no
    /// device before the deadline, or a device without SMP) closes the session, which ends the
    /// upload at once instead of when the core's own link-restore deadline passes.
    private func keepConnected(after lossesBefore: Int, pendingResume: Locked<Int?>, failure: Locked<String?>) async {
        var handled = lossesBefore
        while !Task.isCancelled {
            let far = ContinuousClock.now.advanced(by: .seconds(24 * 3600))
            guard let reason = await connection.losses.waitForLoss(beyond: handled, until: far) else { continue }
            handled = await connection.losses.count
            emit(.warning("the link to \(device) was lost (\(reason)); reconnecting"))
            let deadline = ContinuousClock.now.advanced(by: reconnectAllowance)
            let result = await connection.reconnect(until: deadline, log: { emit(.log($0)) },
                                                    willAttach: { attempt in pendingResume.withLock { $0 = attempt } })
            switch result {
            case .success(let attempt):
                emit(.log("reconnected to \(device) on attempt \(attempt); resuming from the device's offset"))
            case .failure(let reconnect):
                pendingResume.withLock { $0 = nil }
                if case .link(.cancelled) = reconnect { return } // the upload ended meanwhile
                failure.withLock { $0 = Self.describe(reconnect, allowance: reconnectAllowance) }
                await connection.session.close()
                return
            }
        }
    }

    private func explain(_ error: any Error, reconnectFailure: String?) -> DFUError {
        if let reconnectFailure {
            return .transferInterrupted("upload interrupted: \(reconnectFailure). \(EngineFailure.rerun)")
        }
        switch error {
        case let upload as ImageUploadError: return EngineFailure.upload(upload)
        case let client as SMPClientError: return EngineFailure.upload(.client(client))
        default: return .internalError("upload ended with \(error)")
        }
    }

    private static func describe(_ failure: DeviceConnection.ReconnectFailure, allowance: Duration) -> String {
        switch failure {
        case .link(.timeout): return "the link was lost and the device did not come back within \(allowance)"
        case .link(let error): return "the link was lost and reconnecting failed: \(error)"
        case .noSMP(let problem): return "the link was lost and the device came back without SMP: \(problem)"
        }
    }
}
