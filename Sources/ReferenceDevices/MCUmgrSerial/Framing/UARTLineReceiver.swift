extension MCUmgrSerial {
    /// drivers/console/uart_mcumgr.c `uart_mcumgr_rx_byte` (interrupt-driven, SMP over console):
    /// bytes are gathered into `CONFIG_UART_MCUMGR_RX_BUF_COUNT` buffers of
    /// `CONFIG_UART_MCUMGR_RX_BUF_SIZE` bytes from a memory slab, one line (up to and including
    /// `\n`) per buffer. A line that starts when no buffer is free, or that outgrows its buffer, is
    /// ignored up to its `\n`. A buffer returns to the slab when the transport has decoded its line
    /// (smp_uart.c `smp_uart_process_frag` → `uart_mcumgr_free_rx_buf`).
    struct UARTLineReceiver: Equatable {
        enum Event: Equatable {
            case line([UInt8])
            /// A line began with every buffer taken (counted once per line).
            case droppedNoBuffer
            /// A line outgrew its buffer; its buffer went back to the slab.
            case droppedTooLong
        }

        let bufferSize: Int
        let bufferCount: Int
        private(set) var freeBuffers: Int
        private var current: [UInt8]?
        private var ignoring = false

        init(bufferSize: Int, bufferCount: Int) {
            self.bufferSize = bufferSize
            self.bufferCount = bufferCount
            freeBuffers = bufferCount
        }

        mutating func receive(_ byte: UInt8) -> [Event] {
            var events: [Event] = []
            if !ignoring, current == nil {
                if freeBuffers > 0 {
                    freeBuffers -= 1
                    current = []
                } else {
                    ignoring = true
                    events.append(.droppedNoBuffer)
                }
            }
            if !ignoring, var buffer = current {
                if buffer.count >= bufferSize {
                    current = nil
                    freeBuffers += 1
                    ignoring = true
                    events.append(.droppedTooLong)
                } else {
                    buffer.append(byte)
                    current = buffer
                }
            }
            if byte == UInt8(ascii: "\n") {
                if ignoring {
                    ignoring = false
                } else if let line = current {
                    current = nil
                    events.append(.line(line))
                }
            }
            return events
        }

        /// `uart_mcumgr_free_rx_buf`.
        mutating func freeBuffer() {
            freeBuffers = min(bufferCount, freeBuffers + 1)
        }
    }
}
