/// What the raw stream decoder found, in stream order.
public enum SMPRawStreamEvent: Sendable, Hashable {
    /// One packet, header then exactly the body its length announces. Its body is not checked.
    case packet([UInt8])
    /// Bytes that could not start a packet, skipped one at a time until a header fitted; the
    /// reason is the first byte's.
    case skipped([UInt8], SMPRawSkipReason)
}
