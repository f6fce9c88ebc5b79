import DFUCore
import Transport

/// What an upload did, added up from its progress, for the line that ends it: the bytes this run
/// sent (a resumed upload does not count what the device held already), the time from the first
/// chunk sent to the last acknowledgement, and within that time the wait for the device's first
/// reply (the erase, for an upload from the start) and what followed it. The rate is the bytes
/// acknowledged after the first reply over the time after it, so rate and time cover the same
/// bytes and interval. An update in parts adds its parts up.
struct UploadTally: Sendable {
    /// Bytes the device acknowledged that this run sent (an increase of its offset; bytes sent
    /// again after it asked for them again count again).
    private(set) var sent = 0
    /// Of `sent`, those acknowledged after each part's first reply.
    private(set) var afterFirstReply = 0
    /// What the device held when each part's transfer began (an earlier run's upload it resumed).
    private(set) var heldBefore = 0
    /// Parts with a progress, and how many of them started from 0 (the device erased first).
    private(set) var parts = 0
    private(set) var partsFromStart = 0
    /// The first replies' waits, and the parts' times before the current one.
    private(set) var firstReplies: Duration = .zero
    private var earlierParts: Duration = .zero
    private var last: TransferProgress?

    mutating func record(_ progress: TransferProgress) {
        guard let previous = last, previous.part == progress.part else {
            // A part's first reply: what it carried was sent before the device answered.
            earlierParts += last?.elapsed ?? .zero
            parts += 1
            if progress.startOffset == 0 { partsFromStart += 1 }
            firstReplies += progress.elapsed
            heldBefore += progress.startOffset
            sent += progress.sent
            last = progress
            return
        }
        let increase = progress.acknowledged - previous.acknowledged
        if increase > 0 {
            sent += increase
            afterFirstReply += increase
        }
        last = progress
    }

    /// From the first chunk sent to the last acknowledgement, every part's.
    var time: Duration { earlierParts + (last?.elapsed ?? .zero) }

    /// Bytes per second after the first replies; nil without two acknowledgements to measure by.
    var rate: Double? {
        let seconds = (time - firstReplies).seconds
        guard afterFirstReply > 0, seconds > 0 else { return nil }
        return Double(afterFirstReply) / seconds
    }
}
