/// Transfer progress as the device acknowledged it.
struct TransferCount: Sendable, Equatable {
    var acknowledged: Int
    var total: Int
    /// What the device already held when this transfer began (an earlier run's upload it resumes);
    /// 0 for a transfer from the start.
    var startOffset = 0
}
