/// Why a connection ended, as seen from the side that reports it. The HCI codes are those of the
/// Core spec Vol 1 Part F; BlueZ passes other text through `.other`.
public enum DisconnectReason: Hashable, Sendable, CustomStringConvertible {
    /// This side asked for it (`disconnect()`), HCI 0x16.
    case localHostTerminated
    /// The other side closed the link on purpose, e.g. a device rebooting into new firmware, HCI 0x13.
    case remoteUserTerminated
    /// Supervision timeout: the radio lost the other side (range, interference, a crash), HCI 0x08.
    case connectionTimeout
    /// The connection never came up, HCI 0x3E.
    case failedToEstablish
    /// A reason only the backend can name.
    case other(String)

    /// The HCI error code for the reason, when there is one.
    public var hciCode: UInt8? {
        switch self {
        case .localHostTerminated: return 0x16
        case .remoteUserTerminated: return 0x13
        case .connectionTimeout: return 0x08
        case .failedToEstablish: return 0x3E
        case .other: return nil
        }
    }

    public var description: String {
        switch self {
        case .localHostTerminated: return "closed by this computer (HCI 0x16)"
        case .remoteUserTerminated: return "closed by the device (HCI 0x13)"
        case .connectionTimeout: return "signal lost, supervision timeout (HCI 0x08)"
        case .failedToEstablish: return "connection could not be established (HCI 0x3E)"
        case .other(let text): return text
        }
    }
}
