extension MCUmgrSerial {
    /// boot/zephyr/serial_adapter.c: `CONFIG_BOOT_LINE_BUFS` buffers of
    /// `CONFIG_BOOT_MAX_LINE_INPUT_LEN` bytes filled by `boot_uart_fifo_callback`.
    /// - Console: a line ends at `\n`; bytes beyond the buffer are dropped but the line still ends
    ///   at its `\n` (cut, possibly without the `\n`). When no buffer is free the callback returns,
    ///   losing the rest of the bytes it had read in that interrupt (one `receive` call here).
    /// - Raw: bytes fill a buffer; it is queued when full or when the interrupt ends.
    /// A queued line's buffer comes back when the reader asks for the next line
    /// (`boot_uart_fifo_getline` recycles the previous one), i.e. after it was processed.
    struct RecoveryLineReceiver: Equatable {
        let lineLength: Int
        let bufferCount: Int
        let raw: Bool
        private(set) var freeBuffers: Int
        private var current: [UInt8]?
        /// `lines_queue`.
        private(set) var queued: [[UInt8]] = []
        /// The rest of this interrupt's bytes are lost.
        private var droppingBatch = false

        init(lineLength: Int, bufferCount: Int, raw: Bool) {
            self.lineLength = max(1, lineLength)
            self.bufferCount = bufferCount
            self.raw = raw
            freeBuffers = bufferCount
        }

        enum ByteOutcome: Equatable {
            case stored
            /// `first`: the byte that found no buffer (the rest of the batch follows it).
            case droppedNoBuffer(first: Bool)
            case truncated
        }

        mutating func beginInterrupt() { droppingBatch = false }

        mutating func receive(_ byte: UInt8) -> ByteOutcome {
            if droppingBatch { return .droppedNoBuffer(first: false) }
            if current == nil {
                guard freeBuffers > 0 else {
                    droppingBatch = true
                    return .droppedNoBuffer(first: true)
                }
                freeBuffers -= 1
                current = []
            }
            var line = current ?? []
            var outcome = ByteOutcome.stored
            if line.count < lineLength { line.append(byte) } else { outcome = .truncated }
            if raw {
                if line.count >= lineLength {
                    queued.append(line)
                    current = nil
                    return outcome
                }
            } else if byte == UInt8(ascii: "\n") {
                queued.append(line)
                current = nil
                return outcome
            }
            current = line
            return outcome
        }

        /// Raw: what this interrupt gathered is queued as a fragment.
        mutating func endInterrupt() {
            if raw, let line = current, !line.isEmpty {
                queued.append(line)
                current = nil
            }
        }

        /// `boot_uart_fifo_getline`: the oldest line; its buffer stays taken until `release`.
        mutating func takeLine() -> [UInt8]? {
            guard !queued.isEmpty else { return nil }
            return queued.removeFirst()
        }

        mutating func release() {
            freeBuffers = min(bufferCount, freeBuffers + 1)
        }
    }
}
