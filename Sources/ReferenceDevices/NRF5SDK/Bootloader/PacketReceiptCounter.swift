/// Packet Receipt Notifications, the same in both transports (nrf_dfu_ble.c `m_pkt_notif_target`
/// and `ble_dfu_req_handler_callback`; nrf_dfu_serial.h `pkt_notif_target` and nrf_dfu_serial.c
/// `dfu_req_handler_rsp_clbk`): Set PRN sets the target, Create restarts the count, and a Write is
/// answered only when the count runs out, as a checksum answer (`60 03 …`) whatever its result.
struct PacketReceiptCounter: Sendable, Hashable {
    /// 0 = no receipt notifications.
    var target: UInt16 = 0
    var countdown: UInt16 = 0

    /// Set PRN.
    mutating func set(_ target: UInt16) {
        self.target = target
        countdown = target
    }

    /// Create (of either object type).
    mutating func restart() { countdown = target }

    /// The answer the transport sends for `response`, if any. The count is a `uint16_t`: with no
    /// target it wraps, which changes nothing.
    mutating func answer(for response: DFUResponse) -> DFUResponse? {
        guard response.opCode == DFUOpCode.write else { return response }
        countdown &-= 1
        if target == 0 || countdown != 0 { return nil }
        countdown = target
        var receipt = response
        receipt.opCode = DFUOpCode.calculateChecksum
        return receipt
    }
}
