/// How many object bytes one Write Object request carries, from the MTU the bootloader reports.
///
/// The MTU is the largest SLIP-encoded frame the bootloader takes: the UART transport reports
/// 2 × (64 + 1) + 1 = 131 for its 64-byte data buffer (`UART_SLIP_MTU`, `nrf_dfu_serial_uart.c`).
/// A frame is the opcode and the data, every byte possibly escaped to two, then one END, so
/// 2 × (1 + n) + 1 ≤ MTU gives n = ⌊(MTU − 1) / 2⌋ − 1: 64 for UART and 1024 for USB (MTU 2051),
/// exactly the buffers the MTUs were built from. pc-nrfutil computes the same slice length
/// (`DfuTransportSerial.__stream_data`: `(self.mtu-1)//2 - 1`).
public enum NordicSerialWriteSize {
    /// The data bytes per Write Object; nil when the MTU cannot carry even one (below 5).
    public static func largestPayload(mtu: UInt16) -> Int? {
        let payload = (Int(mtu) - 1) / 2 - 1
        return payload >= 1 ? payload : nil
    }

    /// The Write Object requests for one object's bytes, in order: full slices of
    /// `largestPayload(mtu:)` bytes and a shorter last one. Slicing restarts at each object, as
    /// pc-nrfutil streams each object separately. Nil when the MTU is too small; empty data gives
    /// no requests.
    public static func writeRequests(for data: [UInt8], mtu: UInt16) -> [NordicSerialRequest]? {
        guard let size = largestPayload(mtu: mtu) else { return nil }
        return stride(from: 0, to: data.count, by: size).map { start in
            .writeObject(Array(data[start..<min(start + size, data.count)]))
        }
    }
}
