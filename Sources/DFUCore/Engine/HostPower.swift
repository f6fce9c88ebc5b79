/// Where the computer running dfu draws power from. A laptop that dies mid-update leaves the device
/// on a half-written slot (recoverable, but a factory line should not rely on it).
public enum HostPower: Sendable, Equatable {
    case mains
    /// On battery, with its charge in percent when known.
    case battery(level: Int?)
    /// No power-supply information (desktops, VMs, containers): treated as mains.
    case unknown
}
