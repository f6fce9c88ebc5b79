/// Which job starts next, and on which adapter: at most `parallel` jobs at once, and at most
/// `perAdapter` Bluetooth jobs on one adapter (a controller has a few connections' worth of
/// airtime and buffers), each Bluetooth job on the least loaded of `adapters` (or the default
/// adapter, named ""). Jobs start in plan order; a Bluetooth job that has no adapter free waits
/// without holding back the sim or UDP jobs behind it.
struct BatchScheduler {
    let parallel: Int
    let perAdapter: Int
    let adapters: [String]
    private(set) var running = 0
    private(set) var load: [String: Int] = [:]
    private var waiting: [Int]

    /// `jobs`: whether each job is a Bluetooth one; more may be added (`add`).
    init(jobs: [Bool], parallel: Int, perAdapter: Int, adapters: [String]) {
        self.parallel = parallel
        self.perAdapter = perAdapter
        self.adapters = adapters.isEmpty ? [""] : adapters
        self.waiting = Array(jobs.indices)
        self.isBluetooth = jobs
    }

    private var isBluetooth: [Bool]

    /// A job that arrived later (a discovered device); its index is the next one.
    mutating func add(isBluetooth bluetooth: Bool) {
        waiting.append(isBluetooth.count)
        isBluetooth.append(bluetooth)
    }

    var isDone: Bool { waiting.isEmpty && running == 0 }
    var hasWaiting: Bool { !waiting.isEmpty }

    /// The next job that may start now and its adapter ("" for the default one, nil for a job
    /// without Bluetooth); nil when none may.
    mutating func next() -> (job: Int, adapter: String?)? {
        guard running < parallel else { return nil }
        for (position, job) in waiting.enumerated() {
            if !isBluetooth[job] {
                waiting.remove(at: position)
                running += 1
                return (job, nil)
            }
            let free = adapters.filter { load[$0, default: 0] < perAdapter }
            guard let adapter = free.min(by: { load[$0, default: 0] < load[$1, default: 0] }) else { continue }
            waiting.remove(at: position)
            running += 1
            load[adapter, default: 0] += 1
            return (job, adapter)
        }
        return nil
    }

    /// A job that `next` started has ended.
    mutating func finished(adapter: String?) {
        running -= 1
        if let adapter { load[adapter, default: 1] -= 1 }
    }

    /// The jobs never started (the batch was stopped).
    mutating func drain() -> [Int] {
        defer { waiting = [] }
        return waiting
    }
}
