/// Failures per object against `NordicTransferConfiguration.retriesPerObject`. Counts are never
/// reset, so a device that keeps sending the transfer back to one object cannot loop forever; the
/// total work of a run is bounded by (retries + 1) × objects.
struct NordicRetryBudget: Sendable {
    enum Key: Sendable, Hashable {
        case command
        case data(Int)
    }

    let retries: Int
    private var counts: [Key: Int] = [:]

    init(retries: Int) { self.retries = retries }

    /// Counts one failure of `key`'s object: nil while retries remain, else the number of failures.
    mutating func spend(_ key: Key) -> Int? {
        let count = (counts[key] ?? 0) + 1
        counts[key] = count
        return count > retries ? count : nil
    }
}
