import Synchronization

/// Image bytes the host put into upload requests over every link of one run: the count the resend
/// cost is computed from. Shared by the links a `CountingConnector` hands out (one per connection).
final class UploadCounter: Sendable {
    /// Something to do once, when the count first reaches `bytes` (a Nordic run's power cycle:
    /// timed by the bytes written, finer than the engine's per-object progress).
    struct Tripwire: Sendable {
        let bytes: Int
        let action: @Sendable () -> Void
    }

    /// Something to do once, as the host is about to write a Nordic Execute once the count has
    /// reached `bytes` (the final Execute: the device loses power as it arrives). Awaited before
    /// the write goes out.
    struct ExecuteTripwire: Sendable {
        let bytes: Int
        let action: @Sendable () async -> Void
    }

    private let bytes = Mutex(0)
    private let tripwire: Tripwire?
    private let executeTripwire: ExecuteTripwire?
    private let executeFired = Mutex(false)
    /// Told of every count added, as it is added (a process-death run's `KillSchedule`).
    private let onAdd: (@Sendable (Int) -> Void)?

    init(tripwire: Tripwire? = nil, executeTripwire: ExecuteTripwire? = nil, onAdd: (@Sendable (Int) -> Void)? = nil) {
        self.tripwire = tripwire
        self.executeTripwire = executeTripwire
        self.onAdd = onAdd
    }

    /// A Nordic Control Point write the host is about to send.
    func willWriteControlPoint(_ request: [UInt8]) async {
        guard let executeTripwire, request == [0x04], total >= executeTripwire.bytes else { return }
        let first = executeFired.withLock { fired in
            defer { fired = true }
            return !fired
        }
        if first { await executeTripwire.action() }
    }

    func add(_ count: Int) {
        let crossed = bytes.withLock { total in
            let before = total
            total += count
            return tripwire.map { before < $0.bytes && total >= $0.bytes } ?? false
        }
        if crossed { tripwire?.action() }
        onAdd?(count)
    }

    var total: Int { bytes.withLock { $0 } }
}
