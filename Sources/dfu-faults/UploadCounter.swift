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

    private let bytes = Mutex(0)
    private let tripwire: Tripwire?

    init(tripwire: Tripwire? = nil) {
        self.tripwire = tripwire
    }

    func add(_ count: Int) {
        let crossed = bytes.withLock { total in
            let before = total
            total += count
            return tripwire.map { before < $0.bytes && total >= $0.bytes } ?? false
        }
        if crossed { tripwire?.action() }
    }

    var total: Int { bytes.withLock { $0 } }
}
