/// The requests a bootloader answers in full only over UART or USB (`nrf_dfu_op_t` in the SDK's
/// `nrf_dfu_req_handler.h`). The shared ones (Create, Set PRN, Calculate Checksum, Execute,
/// Select, Abort) stay in `NordicOpcode`. Only the serial transport parses these parameters and
/// serialises these answers (`nrf_dfu_serial_on_packet_received`, `response_send` in
/// `nrf_dfu_serial.c`).
public enum NordicSerialOpcode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case protocolVersion = 0x00
    case getMTU = 0x07
    /// Carries object data, which BLE sends on the Packet characteristic instead.
    case writeObject = 0x08
    case ping = 0x09
    case hardwareVersion = 0x0A
    case firmwareVersion = 0x0B

    public var description: String {
        switch self {
        case .protocolVersion: return "Protocol Version"
        case .getMTU: return "Get MTU"
        case .writeObject: return "Write Object"
        case .ping: return "Ping"
        case .hardwareVersion: return "Hardware Version"
        case .firmwareVersion: return "Firmware Version"
        }
    }
}
