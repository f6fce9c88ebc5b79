/// Zephyr's one `NET_BUF_POOL` for SMP (smp.c): requests being reassembled, requests waiting for the
/// work queue, and the response being built all take a buffer from it. When it is empty a write is
/// refused with an ATT error the central never sees (Write Commands have no response), so the
/// request is simply lost. That is why a client may keep at most `buf_count − 1` requests in flight.
struct BufferPool: Sendable, Hashable {
    let capacity: Int
    private(set) var inUse = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Takes one buffer; false when none is free.
    mutating func take() -> Bool {
        guard inUse < capacity else { return false }
        inUse += 1
        return true
    }

    mutating func give(_ count: Int = 1) {
        inUse = max(0, inUse - count)
    }

    mutating func reset() {
        inUse = 0
    }
}
