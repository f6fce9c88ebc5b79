import BlueZTransport
import DFUCore
import Synchronization
import Transport

/// `dfu batch --discover`: scans (BlueZ) for devices that pass the filter and queues each once, as
/// it is first heard with a matching name, until `count` devices have been updated (a device found
/// to run the image already does not count) or `until` passes; then the queue is finished and the
/// runner ends with the devices in flight.
final class BatchDiscovery: Sendable {
    let filter: BatchDiscoveryFilter
    let minimumRSSI: Int?
    let count: Int?
    let until: Duration
    /// Makes the job for a heard device (its address, the sequence number as its "line").
    let makeJob: @Sendable (_ address: String, _ number: Int) -> BatchJob

    private struct State {
        var taken: Set<String> = []
        /// Devices queued that may still count (queued minus those found already up to date).
        var claimed = 0
        /// Devices whose update ended (and counts).
        var done = 0
        /// Matching devices heard while `count` were claimed, in the order heard: the next to take
        /// if a claimed one turns out already up to date (a device is not heard again unless its
        /// advertising changes).
        var backlog: [(address: String, number: Int)] = []
        var queue: BatchJobQueue?
    }

    private let state = Mutex(State())
    /// The scan, to end it early once enough devices are done.
    private let scan = Mutex<Task<Void, Never>?>(nil)

    init(filter: BatchDiscoveryFilter, minimumRSSI: Int?, count: Int?, until: Duration,
         makeJob: @escaping @Sendable (String, Int) -> BatchJob) {
        self.filter = filter
        self.minimumRSSI = minimumRSSI
        self.count = count
        self.until = until
        self.makeJob = makeJob
    }

    /// Scans on `central` and pushes what it finds into `queue`, finishing it at the end (also when
    /// the calling task is cancelled). Returns why the scan could not run, if it could not.
    func run(on central: BlueZCentral, into queue: BatchJobQueue) async -> BlueZError? {
        let failure = Mutex<BlueZError?>(nil)
        state.withLock { $0.queue = queue }
        let task = Task {
            do throws(BlueZError) { try await scan(on: central, into: queue) } catch { failure.withLock { $0 = error } }
        }
        scan.withLock { $0 = task }
        if isEnough { task.cancel() }
        await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        queue.finish()
        return failure.withLock { $0 }
    }

    private func scan(on central: BlueZCentral, into queue: BatchJobQueue) async throws(BlueZError) {
        _ = try await central.scan(filter.scanFilter(minimumRSSI: minimumRSSI), timeout: until, stopWhen: { device in
            guard self.filter.matchesName(device.name) else { return self.isEnough }
            let number: Int? = self.state.withLock { state in
                guard !state.taken.contains(device.address) else { return nil }
                state.taken.insert(device.address)
                if let count = self.count, state.claimed >= count {
                    state.backlog.append((device.address, state.taken.count))
                    return nil
                }
                state.claimed += 1
                return state.taken.count
            }
            if let number { queue.push(self.makeJob(device.address, number)) }
            return self.isEnough
        })
    }

    /// A queued device's update ended: `counts` unless it already ran the image.
    func ended(counts: Bool) {
        let next: (String, Int, BatchJobQueue)? = state.withLock { state in
            if counts {
                state.done += 1
                return nil
            }
            state.claimed -= 1
            guard let queue = state.queue, !state.backlog.isEmpty else { return nil }
            state.claimed += 1
            let heard = state.backlog.removeFirst()
            return (heard.address, heard.number, queue)
        }
        if let (address, number, queue) = next { queue.push(makeJob(address, number)) }
        if isEnough { scan.withLock { $0?.cancel() } }
    }

    /// Whether `count` devices are done (the scan may stop).
    var isEnough: Bool {
        guard let count else { return false }
        return state.withLock { $0.done >= count }
    }
}
