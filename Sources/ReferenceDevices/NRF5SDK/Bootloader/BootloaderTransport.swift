/// The BLE side of the bootloader (nrf_dfu_ble.c): Control Point writes to requests, answers to
/// notifications, and Packet Receipt Notifications. Its counters are statics in the SDK: they live
/// as long as the bootloader runs, across connections.
struct BootloaderTransport: Sendable, Hashable {
    /// `m_pkt_notif_target` and `m_pkt_notif_target_cnt`.
    var receipts = PacketReceiptCounter()

    /// `on_ctrl_pt_write`. The SDK reads parameters without checking the write's length; bytes the
    /// write does not hold are taken as 0 here (decided: the SDK would read stale buffer bytes).
    mutating func request(fromControlPoint value: [UInt8]) -> DFURequest {
        func byte(_ index: Int) -> UInt8 { index < value.count ? value[index] : 0 }
        var request = DFURequest(opCode: byte(0))
        switch request.opCode {
        case DFUOpCode.select:
            request.objectType = byte(1)
        case DFUOpCode.create:
            // The receipt count restarts on every Create.
            receipts.restart()
            request.objectType = byte(1)
            request.objectSize = (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(byte(2 + $1)) << UInt32($1 * 8) }
        case DFUOpCode.setReceiptNotification:
            receipts.set(UInt16(byte(1)) | UInt16(byte(2)) << 8)
        case DFUOpCode.write:
            // A Write op code on the Control Point reaches the handler with no data (the request's
            // buffer fields are zero): a zero-length write.
            break
        default:
            break
        }
        return request
    }

    /// `ble_dfu_req_handler_callback`: the notification for `response`, if one is sent. Answers to
    /// object writes are sent only when a receipt notification is due.
    mutating func notification(for response: DFUResponse) -> [UInt8]? {
        receipts.answer(for: response)?.bytes
    }
}
