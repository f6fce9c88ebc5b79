/// One answer of the request handler (nrf_dfu_req_handler.h `nrf_dfu_response_t`). `bytes` is the
/// BLE transport's notification (nrf_dfu_ble.c `ble_dfu_req_handler_callback`): `60 <op> <result>
/// [payload]`, where only Select and Calculate Checksum (and a receipt notification) carry a
/// payload and a failed request carries none. The serial transport encodes more
/// (`serialBytes`, nrf_dfu_serial.c `response_send`).
struct DFUResponse: Sendable, Hashable {
    enum Payload: Sendable, Hashable {
        case none
        case select(maxSize: UInt32, offset: UInt32, crc: UInt32)
        case checksum(offset: UInt32, crc: UInt32)
        /// `protocol.version`.
        case protocolVersion(UInt8)
        /// `hardware`: FICR part, variant, flash and RAM size in bytes, page size.
        case hardware(SDKChip)
        /// `firmware`: type, version, start address, length.
        case firmware(type: UInt8, version: UInt32, address: UInt32, length: UInt32)
        /// `mtu.size`.
        case mtu(UInt16)
        /// `ping.id`.
        case ping(UInt8)
    }

    var opCode: UInt8
    var status: DFUStatus
    var payload: Payload = .none

    var bytes: [UInt8] {
        var bytes = [DFUOpCode.response, opCode] + status.bytes
        guard status.isSuccess else { return bytes }
        switch payload {
        case .none:
            break
        case .select(let maxSize, let offset, let crc):
            bytes += Self.littleEndian(maxSize) + Self.littleEndian(offset) + Self.littleEndian(crc)
        case .checksum(let offset, let crc):
            bytes += Self.littleEndian(offset) + Self.littleEndian(crc)
        case .protocolVersion, .hardware, .firmware, .mtu, .ping:
            // The BLE transport sends these answers without their payload.
            break
        }
        return bytes
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
