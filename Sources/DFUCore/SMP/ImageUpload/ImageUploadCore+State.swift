import Transport

/// The upload core's state, one enum with payloads (no flags that drift apart), and what each state
/// means to a driver: when to wake the core, whether the upload is over. The transitions between
/// states are in `ImageUploadCore.swift`, with their table.
extension ImageUploadCore {
    enum State: Sendable {
        case ready
        /// The `off == 0` packet is in flight, alone in the current epoch.
        case opening(SMPRequestID, UploadFirstPacket)
        /// Chunks flow; `nextOffset` is where the next chunk starts.
        case streaming(nextOffset: UInt64)
        /// The device answered busy (rc 10): send nothing until the instant, then go on as `resume`.
        case pausing(until: MonotonicInstant, resume: Resume)
        /// The link is gone; wait for a new one until the instant.
        case parked(until: MonotonicInstant)
        /// A link came back and the image state read is in flight: does slot 1 already hold the image?
        case checking(SMPRequestID)
        /// The device fell silent on a link that cannot report its loss: an echo is in flight, the
        /// resume packet follows (`UploadResync`); the upload gives up at the instant.
        case resyncing(echo: SMPRequestID, until: MonotonicInstant)
        case completed
        case failed(ImageUploadError)
    }

    /// Where a pause for a busy device ends: the first packet again, or chunks from an offset.
    enum Resume: Sendable {
        case firstPacket(UploadFirstPacket)
        case chunks(from: UInt64)
    }

    /// The earliest instant the core wants a `timerFired` (quinn's `poll_timeout`).
    public var nextDeadline: MonotonicInstant? {
        switch state {
        case .parked(let until): return until
        case .pausing(let until, _): return [until, client.nextDeadline].compactMap { $0 }.min()
        case .opening, .streaming, .checking, .resyncing: return client.nextDeadline
        case .ready, .completed, .failed: return nil
        }
    }

    public var isFinished: Bool {
        switch state {
        case .completed, .failed: return true
        case .ready, .opening, .streaming, .pausing, .parked, .checking, .resyncing: return false
        }
    }
}

extension ImageUploadCore.State {
    var name: String {
        switch self {
        case .ready: return "ready"
        case .opening: return "sending the first packet"
        case .streaming: return "streaming"
        case .pausing: return "waiting for a busy device"
        case .parked: return "parked (link lost)"
        case .checking: return "reading the image list after the link came back"
        case .resyncing: return "re-synchronising a silent device"
        case .completed: return "completed"
        case .failed: return "failed"
        }
    }
}
