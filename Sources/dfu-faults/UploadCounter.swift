import Synchronization

/// Image bytes the host put into upload requests over every link of one run: the count the resend
/// cost is computed from. Shared by the links a `CountingConnector` hands out (one per connection).
final class UploadCounter: Sendable {
    private let bytes = Mutex(0)

    func add(_ count: Int) {
        bytes.withLock { $0 += count }
    }

    var total: Int { bytes.withLock { $0 } }
}
