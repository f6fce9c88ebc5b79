/// What a memory link's radio has carried so far.
public struct MemoryLinkStatistics: Hashable, Sendable {
    /// Connection events that carried at least one exchange.
    public var connectionEvents = 0
    /// Non-empty LL PDUs from the central, and from the peripheral.
    public var centralPDUs = 0
    public var peripheralPDUs = 0
    /// Value bytes of writes (with and without response) that reached the peripheral.
    public var valueBytesWritten = 0
    /// Notifications that reached the central's radio.
    public var notifications = 0
    /// The anchors of the first and the latest connection event that carried data, in model time:
    /// the schedule the radio played, whatever the pace of the tasks around it.
    public var firstEventAt: MonotonicInstant?
    public var lastEventAt: MonotonicInstant?

    public init() {}
}
