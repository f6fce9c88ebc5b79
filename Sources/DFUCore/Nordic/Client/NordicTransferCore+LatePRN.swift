/// A PRN that comes after `receiptTimeout`. The core then asked for the checksum, and the
/// bootloader handles Packet writes and Control Point requests in one queue, in order (SDK
/// `nrf_dfu_req_handler_on_req`: app_scheduler; `nrf_dfu_ble.c` sends a due receipt when its write
/// is handled), so that PRN leaves before the answer and has the answer's format, `60 03 01 offset
/// crc`. The core takes the first of the two for the answer and has sent its next request when the
/// second arrives: that one is the late PRN, not a violation, if it repeats the answer or fits what
/// was sent.
extension NordicTransferCore {
    /// Opened by the answer to a checksum asked because a due PRN did not come; closed by the next
    /// notification (or a lost link) whatever it is.
    struct LatePRNWindow: Sendable, Hashable {
        let object: NordicTransferObject
        let answer: NordicChecksum
        /// The furthest this object was written when the answer came.
        let sentLimit: Int
    }

    /// Whether `response`, arriving while `pending` is outstanding, is the late PRN of `window`:
    /// the answer again, or an offset inside the object no further than was sent with our CRC up
    /// to it. Anything else is left to `answered` (a violation unless it answers `pending`).
    func isLatePRN(_ response: NordicResponse, window: LatePRNWindow, pending: Pending) -> Bool {
        guard pending.request.opcode != .calculateChecksum, response.opcode == .calculateChecksum,
              case .success(.checksum(let checksum)) = response.outcome else { return false }
        if checksum == window.answer { return true }
        let offset = Int(checksum.offset)
        return offset >= window.object.start && offset <= min(window.object.end, window.sentLimit)
            && checksum.crc == firmware.crc(upTo: offset)
    }
}
