/// The link an SMP scenario's update runs over. `memory` is the in-process link model (BLE-like,
/// it reports a lost link); `udp` and `serial` put a real socket or a pseudo-terminal between the
/// engine and the virtual device, links that say nothing when the device stops answering; `bluez`
/// puts the BlueZ stand-in on a private D-Bus between them (the link model behind it).
/// `process` is no link of its own: the process-death scenarios run the `dfu` binary as a child
/// process (over UDP, or serial for Nordic) and kill it.
enum FaultLink: String, Sendable, CaseIterable, Hashable {
    case memory
    case udp
    case serial
    case process
    case bluez

    /// The scenario name's prefix: `udp-reboot`; none for the memory link (`reboot`).
    var prefix: String {
        switch self {
        case .memory, .process: return ""
        case .udp, .serial, .bluez: return rawValue + "-"
        }
    }
}
