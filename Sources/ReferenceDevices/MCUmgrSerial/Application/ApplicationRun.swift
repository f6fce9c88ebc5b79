import Transport

extension MCUmgrSerial {
    /// The running Zephyr application's mcumgr over its UART: the driver's line buffers
    /// (uart_mcumgr.c), the transport's reassembly (smp_uart.c / smp_raw_uart.c), the netbuf pool
    /// and SMP FIFO (smp.c), the work queues, and the SMP server. Everything here is RAM: a reset
    /// drops it.
    struct ApplicationRun {
        /// An SMP request being run on its work queue.
        struct Request: Equatable {
            enum Phase: Equatable {
                /// The handler and its flash work; the response goes out when it ends.
                case handling(response: [UInt8])
                /// `uart_poll_out` blocks the queue until the last byte is out.
                case transmitting
            }

            var phase: Phase
            var holdsResponseBuffer: Bool
        }

        let configuration: MCUmgrSerialConfiguration
        var server: ZephyrSMPServer
        var lines: UARTLineReceiver
        /// smp_uart.c `smp_uart_rx_fifo`: received lines waiting to be decoded, each in an RX buffer.
        var pendingLines: [[UInt8]] = []
        var reassembly = SerialReassembly()
        var pool: NetbufPool
        /// The transport's FIFO of complete requests, each in a netbuf.
        var pendingPackets: [[UInt8]] = []
        /// The system work queue, and the "mcumgr smp" one (unused with `.systemWorkQueueOnly`).
        var systemQueue = WorkQueue()
        var smpQueue = WorkQueue()
        var decoding: [UInt8]?
        var request: Request?
        /// When the reset the OS group scheduled happens.
        var resetAt: MonotonicInstant?
        /// Raw transport: when the input timer fired (`clear_buffer`).
        var rawInputDeadline: MonotonicInstant?
        /// The time the model has reached.
        var clock: MonotonicInstant

        init(configuration: MCUmgrSerialConfiguration, now: MonotonicInstant) {
            self.configuration = configuration
            server = ZephyrSMPServer(configuration: configuration)
            lines = UARTLineReceiver(bufferSize: configuration.uartRxBufferSize, bufferCount: configuration.uartRxBufferCount)
            pool = NetbufPool(count: configuration.netbufCount, size: configuration.netbufSize)
            clock = now
        }

        private var sharedQueue: Bool { configuration.workQueues == .systemWorkQueueOnly }

        // MARK: Receive (interrupt context)

        /// One byte from the UART at `clock` (uart_mcumgr.c `uart_mcumgr_isr`).
        mutating func receive(_ byte: UInt8, counters: inout MCUmgrSerialCounters) -> [SerialLineOutput] {
            switch configuration.applicationFraming {
            case .console:
                var notes: [SerialLineOutput] = []
                for event in lines.receive(byte) {
                    switch event {
                    case .line(let line):
                        pendingLines.append(line)
                        systemQueue.submit(.decodeLines)
                    case .droppedNoBuffer:
                        counters.linesDroppedNoBuffer += 1
                        notes.append(.note("uart_mcumgr: Insufficient buffers, fragment dropped"))
                    case .droppedTooLong:
                        counters.linesDroppedTooLong += 1
                        notes.append(.note("uart_mcumgr: Line too long, fragment dropped"))
                    }
                }
                return notes
            case .raw:
                // smp_raw_uart.c `smp_raw_uart_process_frag`, called from the ISR for every byte.
                if let deadline = rawInputDeadline, clock >= deadline, reassembly.holdsNetbuf {
                    reassembly.discard(pool: &pool)
                    counters.rawInputTimeouts += 1
                }
                rawInputDeadline = nil
                let outcome = reassembly.raw([byte], pool: &pool)
                let notes = account(outcome, counters: &counters)
                if case .incomplete = outcome, let timeout = configuration.rawInputTimeout, reassembly.pendingCount > 0 {
                    rawInputDeadline = clock + timeout
                }
                return notes
            }
        }

        private mutating func account(_ outcome: SerialReassembly.Outcome, counters: inout MCUmgrSerialCounters) -> [SerialLineOutput] {
            switch outcome {
            case .packet(let packet):
                counters.packetsDecoded += 1
                pendingPackets.append(packet)
                if sharedQueue { systemQueue.submit(.processPackets) } else { smpQueue.submit(.processPackets) }
            case .noNetbuf:
                counters.fragmentsDroppedNoNetbuf += 1
                return [.note("smp: no netbuf free, fragment dropped")]
            case .dropped(.crcMismatch):
                counters.crcFailures += 1
                return [.note("mcumgr_serial_process_frag: CRC mismatch, packet dropped")]
            case .dropped(let reason):
                counters.framesDropped[String(describing: reason), default: 0] += 1
                return [.note("mcumgr_serial_process_frag: packet dropped (\(reason))")]
            case .incomplete, .notFrame:
                break
            }
            return []
        }

        // MARK: Work queues

        /// The earliest time an element of work ends.
        var nextEvent: MonotonicInstant? {
            [systemQueue.busyUntil, smpQueue.busyUntil].compactMap { $0 }.min()
        }

        /// Runs work until `limit`, stopping early at the scheduled reset (the device carries it out).
        mutating func run(until limit: MonotonicInstant, flash: inout DeviceFlash,
                          counters: inout MCUmgrSerialCounters) -> [SerialLineOutput] {
            var outputs: [SerialLineOutput] = []
            while true {
                startIdleWork(flash: &flash, counters: &counters)
                guard let next = nextEvent, next <= limit else { break }
                if let reset = resetAt, reset <= next { break }
                clock = max(clock, next)
                if systemQueue.busyUntil == next {
                    outputs += finish(on: \.systemQueue, flash: &flash, counters: &counters)
                } else {
                    outputs += finish(on: \.smpQueue, flash: &flash, counters: &counters)
                }
            }
            let stop = resetAt.map { min($0, limit) } ?? limit
            clock = max(clock, stop)
            return outputs
        }

        private func hasWork(_ item: WorkItem) -> Bool {
            switch item {
            case .decodeLines: return !pendingLines.isEmpty
            case .processPackets: return !pendingPackets.isEmpty
            }
        }

        private mutating func startIdleWork(flash: inout DeviceFlash, counters: inout MCUmgrSerialCounters) {
            if systemQueue.busyUntil == nil, let item = systemQueue.nextItem(hasWork: hasWork) {
                systemQueue.busyUntil = start(item, flash: &flash, counters: &counters)
            }
            if smpQueue.busyUntil == nil, let item = smpQueue.nextItem(hasWork: hasWork) {
                smpQueue.busyUntil = start(item, flash: &flash, counters: &counters)
            }
        }

        /// Starts one element of `item`; returns when it ends.
        private mutating func start(_ item: WorkItem, flash: inout DeviceFlash, counters: inout MCUmgrSerialCounters) -> MonotonicInstant {
            switch item {
            case .decodeLines:
                decoding = pendingLines.removeFirst()
                return clock + configuration.lineDecodeTime
            case .processPackets:
                let packet = pendingPackets.removeFirst()
                // smp.c `smp_alloc_rsp`: a response buffer, or MGMT_ERR_ENOMEM answered in the request's.
                let responseBuffer = pool.allocate()
                server.flashTime = .zero
                server.requestedReset = nil
                let responses = server.process(packet, responseBuffer: responseBuffer, flash: &flash)
                if let delay = server.requestedReset { resetAt = clock + delay }
                counters.requestsProcessed += 1
                let wire = responses.flatMap(encode)
                request = Request(phase: .handling(response: wire), holdsResponseBuffer: responseBuffer)
                return clock + configuration.requestTime + server.flashTime
            }
        }

        /// smp_uart.c `smp_uart_tx_pkt` → uart_mcumgr.c `uart_mcumgr_send`.
        private func encode(_ response: [UInt8]) -> [UInt8] {
            switch configuration.applicationFraming {
            case .console: return zephyrConsoleFrames(response)
            case .raw: return response
            }
        }

        private mutating func finish(on queue: WritableKeyPath<ApplicationRun, WorkQueue>, flash: inout DeviceFlash,
                                     counters: inout MCUmgrSerialCounters) -> [SerialLineOutput] {
            self[keyPath: queue].busyUntil = nil
            let item = self[keyPath: queue].running
            if item == .decodeLines, let line = decoding {
                decoding = nil
                // smp_uart.c `smp_uart_process_frag`: decode, free the RX buffer, pass a packet on.
                let outcome = reassembly.console(line, pool: &pool)
                lines.freeBuffer()
                return account(outcome, counters: &counters)
            }
            guard item == .processPackets, var current = request else { return [] }
            switch current.phase {
            case .handling(let wire):
                current.phase = .transmitting
                request = current
                self[keyPath: queue].busyUntil = clock + configuration.transmitTime(wire.count)
                counters.bytesTransmitted += wire.count
                return wire.isEmpty ? [] : [.transmit(wire)]
            case .transmitting:
                request = nil
                if current.holdsResponseBuffer { pool.free() }
                pool.free()  // the request's netbuf (smp_process_request_packet's smp_free_buf)
                let noise = configuration.noise
                if noise.every > 0, counters.requestsProcessed % noise.every == 0 {
                    return [.transmit(Array(noise.line.utf8))]
                }
                return []
            }
        }
    }
}
