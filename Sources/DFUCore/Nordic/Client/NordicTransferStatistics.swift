/// Counts of what a transfer did and how often it recovered, for logs, the benchmark and tests.
public struct NordicTransferStatistics: Sendable, Hashable {
    /// Packet-characteristic writes and their bytes (init packet and firmware).
    public var packetsSent = 0
    public var bytesSent = 0
    public var controlPointWrites = 0
    /// Objects created again after a CRC mismatch or a refused Execute.
    public var objectsRecreated = 0
    /// Checksums (PRN or reply) that showed fewer bytes than sent with a matching CRC.
    public var lossesDetected = 0
    public var crcMismatches = 0
    /// Receipts answering 03 (invalid parameter): a write overflowed the object (§3.1), packets
    /// from before a Create having landed after it.
    public var objectOverflows = 0
    /// PRNs that did not come within the receipt timeout.
    public var missingPRNs = 0
    /// Of those, PRNs that came after all, ahead of the answer to the checksum asked for instead.
    public var latePRNs = 0
    public var linkLosses = 0

    public init() {}
}
