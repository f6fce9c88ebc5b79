/// One answer of the request handler, as the BLE transport turns it into a notification
/// (nrf_dfu_ble.c `ble_dfu_req_handler_callback`): `60 <op> <result> [payload]`. Over BLE only
/// Select and Calculate Checksum (and a receipt notification) carry a payload; a failed request
/// carries none.
struct DFUResponse: Sendable, Hashable {
    enum Payload: Sendable, Hashable {
        case none
        case select(maxSize: UInt32, offset: UInt32, crc: UInt32)
        case checksum(offset: UInt32, crc: UInt32)
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
        }
        return bytes
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
