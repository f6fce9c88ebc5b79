/// What the console decoder found in the bytes it was given, in the order they arrived.
public enum SMPSerialEvent: Sendable, Hashable {
    /// One complete SMP packet (header and body), its length and CRC checked and removed.
    case packet([UInt8])
    /// Bytes outside any frame: shell or log output sharing the UART. Delivered a line at a time
    /// (the newline included), or when a marker interrupts the text, or in chunks when a line is
    /// very long. `dfu --verbose` shows them.
    case text([UInt8])
    /// A line or a partly received packet was thrown away.
    case dropped(SMPSerialDropReason)
}
