/// How long to wait before asking again at an offset the device answered `MGMT_ERR_EBUSY` (rc 10,
/// "blocked by another command": zephyr include/zephyr/mgmt/mcumgr/mgmt/mgmt_defines.h) for, and
/// when to give up. The wait doubles from `base` up to `cap`; the `limit`-th busy answer at one
/// offset ends the upload. Counts are never reset, so a device that is always busy cannot keep the
/// upload going forever.
struct UploadBusyBackoff: Sendable {
    let base: Duration
    let cap: Duration
    let limit: Int
    private var counts: [UInt64: Int] = [:]

    init(base: Duration, cap: Duration, limit: Int) {
        self.base = base
        self.cap = cap
        self.limit = limit
    }

    /// Counts one busy answer at `offset`: the wait before the retry, or the error that ends the
    /// upload when the limit is reached.
    mutating func next(at offset: UInt64) -> Result<Duration, ImageUploadError> {
        let count = (counts[offset] ?? 0) + 1
        counts[offset] = count
        guard count < limit else { return .failure(.deviceBusy(offset: offset, attempts: count)) }
        var delay = base
        for _ in 1 ..< count where delay < cap { delay = delay * 2 }
        return .success(min(delay, cap))
    }
}
