/// A request as nrf_dfu_serial.c `nrf_dfu_serial_on_packet_received` hands it to the request
/// handler's queue: the parsed fields, and for a Write, where its payload is. The payload is not
/// copied: `write.p_data` points into the receive buffer, which is read when the request is handled
/// and given back only if the handler calls `callback.write`.
struct SerialRequest: Sendable, Hashable {
    /// The receive block a Write's payload stays in: from byte 1 (after the op code), `length` bytes.
    struct Payload: Sendable, Hashable {
        var block: Int
        /// `write.len`: the frame's length minus one, as a `uint16_t` (a lone END gives 65535).
        var length: Int
    }

    var request: DFURequest
    var payload: Payload?
    /// The frame's decoded length (`m_slip.current_index`).
    var frameLength: Int
}
