/// The upload's knobs. Defaults follow the reference clients (smp-mcuboot.md §3 "Pipelining"):
/// Android's 40 s for the first chunk (the device erases the slot before answering) and 20 s for
/// the last, a 5 s per-chunk deadline (between Android's 2.5 s and iOS's 10 s: long enough for a
/// full window on a slow link), and Nordic's `MAX_CHUNK_FAILURES` of 5.
public struct ImageUploadConfiguration: Sendable, Hashable {
    /// Chunk requests in flight after the first packet; at least 1. See `window(bufferCount:)`.
    public var window: Int
    /// Deadline for any `off == 0` packet: start, restart after a lost session, resume probe.
    public var firstChunkTimeout: Duration
    /// Deadline for other chunks.
    public var chunkTimeout: Duration
    /// Deadline for the chunk that ends the image (the device may check the image before answering).
    public var lastChunkTimeout: Duration
    /// How long a lost link may stay lost before the upload gives up. The engine reconnects (with
    /// capped backoff) meanwhile; this makes the parked state end even if nobody ever does.
    public var linkRestoreTimeout: Duration
    /// The upload fails at the n-th failure (deadline, rewind or lost session) at one offset.
    public var maxFailuresPerOffset: Int
    /// A device answering `MGMT_ERR_EBUSY` (rc 10) is asked again at the same offset after
    /// `busyBackoff`, doubling up to `busyBackoffCap`; the `maxBusyPerOffset`-th busy answer at
    /// one offset ends the upload (defaults: 0.1 s, 2 s, 8: about 9 s of waiting at most).
    public var busyBackoff: Duration = .milliseconds(100)
    public var busyBackoffCap: Duration = .seconds(2)
    public var maxBusyPerOffset: Int = 8
    /// On a link that cannot report its loss (UDP, a serial line), a device silent for
    /// `silentTimeoutsBeforeResync` chunk deadlines in a row at one offset is re-synchronised for
    /// at most this long (`UploadResync`): an echo, then the upload's resume packet (off 0, same
    /// `sha`), which a device still holding the session answers with its offset. Nil: the link
    /// reports a loss itself (BLE), and a silent device only counts failures.
    public var resyncAfterSilence: Duration?
    public var silentTimeoutsBeforeResync = 2

    public init(window: Int = 1, firstChunkTimeout: Duration = .seconds(40), chunkTimeout: Duration = .seconds(5),
                lastChunkTimeout: Duration = .seconds(20), linkRestoreTimeout: Duration = .seconds(120),
                maxFailuresPerOffset: Int = 5) {
        self.window = window
        self.firstChunkTimeout = firstChunkTimeout
        self.chunkTimeout = chunkTimeout
        self.lastChunkTimeout = lastChunkTimeout
        self.linkRestoreTimeout = linkRestoreTimeout
        self.maxFailuresPerOffset = maxFailuresPerOffset
    }

    /// Nordic's rule: `buf_count − 1`, at least 1. Zephyr's SMP buffers are shared by requests and
    /// responses, so one must stay free for the answer (Android FirmwareUpgradeSettings; maintainer
    /// comment in Android-nRF-Connect-Device-Manager#72).
    public static func window(bufferCount: UInt64) -> Int {
        Int(clamping: max(bufferCount, 2) - 1)
    }

    /// Nil when usable; else why not.
    public var problem: String? {
        if window < 1 { return "the window must allow at least one request in flight, not \(window)" }
        if maxFailuresPerOffset < 1 { return "at least one failure per offset must be allowed, not \(maxFailuresPerOffset)" }
        if maxBusyPerOffset < 1 { return "at least one busy answer per offset must be allowed, not \(maxBusyPerOffset)" }
        if busyBackoff <= .zero || busyBackoffCap < busyBackoff {
            return "the busy backoff must be positive and at most its cap, not \(busyBackoff) (cap \(busyBackoffCap))"
        }
        for (name, value) in [("first-chunk", firstChunkTimeout), ("chunk", chunkTimeout), ("last-chunk", lastChunkTimeout),
                              ("link-restore", linkRestoreTimeout)] where value <= .zero {
            return "the \(name) timeout must be positive, not \(value)"
        }
        return nil
    }
}
