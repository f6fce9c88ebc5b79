/// The LE physical layer a connection uses. Coded PHY is not modelled: no DFU target here uses it.
public enum LinkPHY: String, Hashable, Sendable, CustomStringConvertible {
    /// LE 1M: 1 Mbit/s, 1-byte preamble.
    case le1M = "1M"
    /// LE 2M: 2 Mbit/s, 2-byte preamble.
    case le2M = "2M"

    public var description: String { rawValue }
}
