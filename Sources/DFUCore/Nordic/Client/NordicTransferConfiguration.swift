/// How a Nordic Secure DFU transfer runs: the packet size of the link, the PRN value, the retry
/// budget and the deadlines. Everything the device decides (object sizes, offsets) comes from it.
public struct NordicTransferConfiguration: Sendable, Hashable {
    /// Bytes per Packet-characteristic write: ATT MTU − 3 rounded down to a multiple of 4
    /// (nordic-secure-dfu.md §10.3); see `packetSize(attMTU:)`.
    public var packetSize: Int
    /// Packet Receipt Notification value for the data objects (0 = off; the init packet always
    /// goes with PRN off). After the first lost packet the core uses 1 for the rest of the run.
    public var packetReceiptNotification: UInt16
    /// Failures one object may have (CRC mismatch, lost packets, a missing PRN, a lost link)
    /// before the transfer fails; the next one ends it (§3.3: 3).
    public var retriesPerObject: Int
    /// How long a Control Point answer or the link's acceptance of packets may take.
    public var responseTimeout: Duration
    /// How long a due PRN may take once the link took its packets. Short: a bootloader that drops
    /// a packet silently does not count it, so that PRN never comes and the core asks for the
    /// checksum instead; a PRN that exists arrives within a few connection events.
    public var receiptTimeout: Duration
    /// How long the core waits, after `reconnect`, for `linkRestored`.
    public var linkRestoreTimeout: Duration
    /// How long after an ATT error on a Control Point write the link must still be up for the
    /// error to count as a refusal: bluetoothd fails a write on a link that is going down (ATT
    /// 0x0E) tens of milliseconds before it reports the disconnection.
    public var linkVerdictDelay: Duration

    public init(packetSize: Int, packetReceiptNotification: UInt16 = 0, retriesPerObject: Int = 3,
                responseTimeout: Duration = .seconds(10), receiptTimeout: Duration = .seconds(2),
                linkRestoreTimeout: Duration = .seconds(60), linkVerdictDelay: Duration = .seconds(1)) {
        self.packetSize = packetSize
        self.packetReceiptNotification = packetReceiptNotification
        self.retriesPerObject = retriesPerObject
        self.responseTimeout = responseTimeout
        self.receiptTimeout = min(receiptTimeout, responseTimeout)
        self.linkRestoreTimeout = linkRestoreTimeout
        self.linkVerdictDelay = linkVerdictDelay
    }

    /// The smallest write, and the one for an unknown MTU (the default ATT MTU 23 − 3).
    public static let minimumPacketSize = 20

    /// ATT MTU − 3 rounded down to a multiple of 4, at least 20: the bootloader's flash path drops
    /// writes whose length is not a multiple of 4 (§10.3).
    public static func packetSize(attMTU: Int) -> Int {
        max(minimumPacketSize, (attMTU - 3) / 4 * 4)
    }

    /// Nil when the configuration can run; else why not.
    var problem: String? {
        if let problem = Self.problem(packetSize: packetSize) { return problem }
        if retriesPerObject < 0 { return "the retry budget is negative (\(retriesPerObject))" }
        if responseTimeout <= .zero || receiptTimeout <= .zero || linkRestoreTimeout < .zero || linkVerdictDelay < .zero { return "a timeout is not positive" }
        return nil
    }

    static func problem(packetSize: Int) -> String? {
        guard packetSize >= minimumPacketSize, packetSize % 4 == 0 else {
            return "the packet size \(packetSize) is not a multiple of 4 of at least \(minimumPacketSize) bytes"
        }
        return nil
    }
}
