import DFUCore
import DeviceSim

/// What the device model has just been asked or done, as the kill points after the transfer need
/// it, whichever link serves it: the UDP or serial server's events, or over BLE the requests the
/// stand-in hands the device (`CountingLink`) and the `VirtualPeripheral`'s own events. Each is
/// reported before the device answers it.
enum DeviceStep: Sendable, Equatable {
    /// A request reached the device (its SMP header).
    case request(SMPHeader)
    /// The device wrote an upload's last byte.
    case uploadCompleted
    /// The device began a reset.
    case rebooting
    /// One of the device's `fault=` faults fired (an outage began, the device dropped the link).
    case fault(SimFault)

    init?(_ event: UDPServerEvent) {
        switch event {
        case .received(_, _, let header?): self = .request(header)
        case .uploadCompleted: self = .uploadCompleted
        case .rebooting: self = .rebooting
        case .faultInjected(let fault): self = .fault(fault)
        default: return nil
        }
    }

    init?(_ event: SerialServerEvent) {
        switch event {
        case .received(_, let header?): self = .request(header)
        case .uploadCompleted: self = .uploadCompleted
        case .rebooting: self = .rebooting
        case .faultInjected(let fault): self = .fault(fault)
        default: return nil
        }
    }

    init(_ event: VirtualPeripheralEvent) {
        switch event {
        case .uploadCompleted: self = .uploadCompleted
        case .rebooting: self = .rebooting
        case .faultInjected(let fault): self = .fault(fault)
        }
    }
}
