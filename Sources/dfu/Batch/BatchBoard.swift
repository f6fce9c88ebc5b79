import DFUCore
import Synchronization

/// The devices of a batch in flight and how far each is, shared between the runs that update it
/// and the terminal view that draws it.
final class BatchBoard: Sendable {
    struct Entry: Sendable {
        var name: String
        var progress = BatchDeviceProgress()
    }

    private let entries = Mutex<[Int: Entry]>([:])

    func start(_ job: Int, name: String) {
        entries.withLock { $0[job] = Entry(name: name) }
    }

    func fold(_ job: Int, _ event: UpdateEvent) {
        entries.withLock { $0[job]?.progress.fold(event) }
    }

    /// Takes the job off the board, with what it reached.
    func finish(_ job: Int) -> BatchDeviceProgress {
        entries.withLock { $0.removeValue(forKey: job)?.progress } ?? BatchDeviceProgress()
    }

    /// The jobs in flight, in plan order.
    var inFlight: [Entry] {
        entries.withLock { entries in entries.keys.sorted().compactMap { entries[$0] } }
    }
}
