import Transport

/// The client's table of requests waiting for an answer, keyed by sequence number, plus a short
/// memory of sequence numbers that stopped waiting.
///
/// Why remember retired numbers: a reply can legitimately arrive after we gave up on it (its
/// deadline passed a moment earlier) or twice (a duplicated notification). Such a reply answers a
/// request we did send, so it is dropped quietly; a reply whose number we never used, or used so
/// long ago that it fell out of this memory, is a protocol violation. Allocation skips recently
/// retired numbers when it can, so a late reply is not taken for the answer to a newer request.
struct SMPOutstandingRequests: Sendable {
    struct Entry: Sendable, Hashable {
        let id: SMPRequestID
        /// Kept so the request can be sent again in another SMP version.
        let message: SMPRequestMessage
        /// The header as sent (sequence, version, group, command, op).
        let header: SMPHeader
        let timeout: Duration
        let deadline: MonotonicInstant
        /// Set once the request was re-sent in the other SMP version; it is not re-sent twice.
        let isVersionRetry: Bool
    }

    /// How many retired numbers are remembered: half the 8-bit space. A device answers in order
    /// (Zephyr's SMP work queue is FIFO), so a reply can only be late by the requests in flight
    /// with it, far fewer than 128; any more and the number could as well name a newer request.
    static let retiredMemory = 128

    private var entries: [UInt8: Entry] = [:]
    /// Most recent last.
    private var retired: [UInt8] = []
    private var nextSequence: UInt8

    init(startingSequence: UInt8) { nextSequence = startingSequence }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// The sequence number the next request would get, counting up with wrap-around; nil when all
    /// 256 are waiting. Does not reserve it: `insert` does.
    func freeSequence() -> UInt8? {
        var fallback: UInt8?
        var candidate = nextSequence
        for _ in 0..<256 {
            if entries[candidate] == nil {
                if !retired.contains(candidate) { return candidate }
                if fallback == nil { fallback = candidate }
            }
            candidate &+= 1
        }
        return fallback
    }

    mutating func insert(_ entry: Entry) {
        let sequence = entry.header.sequence
        entries[sequence] = entry
        retired.removeAll { $0 == sequence }
        nextSequence = sequence &+ 1
    }

    func entry(sequence: UInt8) -> Entry? { entries[sequence] }

    func isRetired(_ sequence: UInt8) -> Bool { retired.contains(sequence) }

    /// Stops waiting for `sequence`; its late replies will be ignored.
    @discardableResult
    mutating func retire(sequence: UInt8) -> Entry? {
        guard let entry = entries.removeValue(forKey: sequence) else { return nil }
        retired.append(sequence)
        if retired.count > Self.retiredMemory { retired.removeFirst(retired.count - Self.retiredMemory) }
        return entry
    }

    /// Every request whose deadline is at or before `now`, oldest deadline first, retired.
    mutating func retireExpired(at now: MonotonicInstant) -> [Entry] {
        let expired = entries.values.filter { $0.deadline <= now }
            .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        for entry in expired { retire(sequence: entry.header.sequence) }
        return expired
    }

    /// Every waiting request, in the order they were sent (by id), retired.
    mutating func retireAll() -> [Entry] {
        let all = entries.values.sorted { $0.id < $1.id }
        for entry in all { retire(sequence: entry.header.sequence) }
        return all
    }

    var earliestDeadline: MonotonicInstant? { entries.values.map(\.deadline).min() }
}
