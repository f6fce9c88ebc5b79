/// The byte pair that opens every line of an SMP packet on a console: `MCUMGR_SERIAL_HDR_PKT`
/// (0x06 0x09) on the first line, `MCUMGR_SERIAL_HDR_FRAG` (0x04 0x14) on each later one (Zephyr
/// `include/zephyr/mgmt/mcumgr/transport/serial.h`; the same pairs are MCUboot's
/// `SHELL_NLIP_PKT_START`/`SHELL_NLIP_DATA_START`). ACK and EOT never occur in shell or log text,
/// which is what lets SMP share a UART with them.
public enum SMPSerialMarker: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case start
    case continuation

    public var bytes: [UInt8] {
        switch self {
        case .start: return [0x06, 0x09]
        case .continuation: return [0x04, 0x14]
        }
    }

    /// The marker `first` then `second` spell, if any.
    public init?(first: UInt8, second: UInt8) {
        switch (first, second) {
        case (0x06, 0x09): self = .start
        case (0x04, 0x14): self = .continuation
        default: return nil
        }
    }

    /// Whether `byte` can open a marker, so a scanner must see the next byte before deciding.
    public static func canBegin(_ byte: UInt8) -> Bool { byte == 0x06 || byte == 0x04 }

    public var description: String { self == .start ? "start" : "continuation" }
}
