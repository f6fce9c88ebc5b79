import Transport

extension MCUmgrSerial {
    /// MCUboot in serial recovery: boot_serial.c `boot_serial_read_console`, one line or packet at a
    /// time on a single thread, with the serial adapter's buffers filling meanwhile from the
    /// interrupt. A command's answer is written with blocking `uart_poll_out` before the next line
    /// is read.
    struct RecoveryRun {
        enum Phase: Equatable {
            /// Decoding a line and running the command it completed; the answer goes out at the end.
            case working(answer: [UInt8])
            /// Writing the answer.
            case transmitting
            /// `bs_reset`: `k_sleep(250 ms)` after the answer, then `sys_reboot`.
            case sleepingBeforeReset
        }

        let configuration: MCUmgrSerialConfiguration
        var server: BootSerialServer
        var receiver: RecoveryLineReceiver
        var decoder: RecoveryDecoder
        /// Raw protocol: `in_buf[0..<off]`.
        var rawInput: [UInt8] = []
        var rawLastInput: MonotonicInstant?
        var phase: Phase?
        var busyUntil: MonotonicInstant?
        /// The reboot `bs_reset` leads to.
        var resetAt: MonotonicInstant?
        var clock: MonotonicInstant

        init(configuration: MCUmgrSerialConfiguration, now: MonotonicInstant) {
            self.configuration = configuration
            server = BootSerialServer(configuration: configuration)
            receiver = RecoveryLineReceiver(lineLength: configuration.recoveryLineLength,
                                            bufferCount: configuration.recoveryLineBuffers,
                                            raw: configuration.recoveryFraming == .raw)
            decoder = RecoveryDecoder(maxReceiveSize: configuration.recoveryMaxReceiveSize)
            clock = now
        }

        /// One byte of the current interrupt's batch, at `clock`.
        mutating func receive(_ byte: UInt8, counters: inout MCUmgrSerialCounters) -> [SerialLineOutput] {
            switch receiver.receive(byte) {
            case .stored:
                return []
            case .droppedNoBuffer(let first):
                counters.recoveryBytesDroppedNoBuffer += 1
                return first ? [.note("serial_adapter: Not enough memory to store incoming data!")] : []
            case .truncated:
                counters.recoveryLinesTruncated += 1
                return []
            }
        }

        var nextEvent: MonotonicInstant? { busyUntil }

        mutating func run(until limit: MonotonicInstant, flash: inout DeviceFlash,
                          counters: inout MCUmgrSerialCounters) -> [SerialLineOutput] {
            var outputs: [SerialLineOutput] = []
            while true {
                if busyUntil == nil, resetAt == nil { startNext(flash: &flash, counters: &counters) }
                guard let next = busyUntil, next <= limit else { break }
                clock = max(clock, next)
                busyUntil = nil
                outputs += finish(counters: &counters)
                if let reset = resetAt, reset <= limit { break }
            }
            clock = max(clock, resetAt.map { min($0, limit) } ?? limit)
            return outputs
        }

        /// Takes the next line (or raw fragment) and works on it. With the raw protocol a partial
        /// packet idle for `BOOT_SERIAL_RAW_PROTOCOL_INPUT_TIMEOUT_MS` is dropped first (the loop's
        /// `check_timeout`).
        private mutating func startNext(flash: inout DeviceFlash, counters: inout MCUmgrSerialCounters) {
            if configuration.recoveryFraming == .raw, let timeout = configuration.recoveryRawInputTimeout,
               !rawInput.isEmpty, let last = rawLastInput, last.duration(to: clock) >= timeout {
                rawInput = []
                counters.rawInputTimeouts += 1
            }
            guard let line = receiver.takeLine() else { return }
            var packets: [[UInt8]] = []
            switch configuration.recoveryFraming {
            case .console:
                switch decoder.line(line) {
                case .packet(let packet): packets.append(packet)
                case .crcMismatch: counters.crcFailures += 1
                case .incomplete, .decodeError, .notFrame: break
                }
            case .raw:
                rawInput += line.prefix(max(0, decoder.capacity - rawInput.count))
                rawLastInput = clock
                packets = takeRawPackets()
            }
            server.flashTime = .zero
            var answer: [UInt8] = []
            for packet in packets {
                counters.recoveryPacketsDecoded += 1
                if let response = server.input(packet, flash: &flash) {
                    counters.recoveryCommandsProcessed += 1
                    answer += encode(response)
                }
            }
            let commandTime = packets.isEmpty ? Duration.zero : configuration.requestTime * packets.count
            phase = .working(answer: answer)
            busyUntil = clock + configuration.lineDecodeTime + commandTime + server.flashTime
        }

        /// boot_serial.c `boot_serial_input_raw`: every complete packet at the front; an invalid op
        /// or a packet larger than the input buffer discards everything buffered.
        private mutating func takeRawPackets() -> [[UInt8]] {
            var packets: [[UInt8]] = []
            while let header = SMPHeader(rawInput) {
                let length = SMPHeader.size + Int(header.length)
                guard header.op == SMPHeader.Op.read || header.op == SMPHeader.Op.write, length <= decoder.capacity else {
                    rawInput = []
                    break
                }
                guard rawInput.count >= length else { break }
                packets.append(Array(rawInput.prefix(length)))
                rawInput.removeFirst(length)
            }
            return packets
        }

        private func encode(_ response: [UInt8]) -> [UInt8] {
            configuration.recoveryFraming == .raw ? response : mcubootConsoleFrames(response)
        }

        private mutating func finish(counters: inout MCUmgrSerialCounters) -> [SerialLineOutput] {
            switch phase {
            case .working(let answer)?:
                phase = .transmitting
                busyUntil = clock + configuration.transmitTime(answer.count)
                counters.bytesTransmitted += answer.count
                return answer.isEmpty ? [] : [.transmit(answer)]
            case .transmitting?:
                receiver.release()
                if server.resetRequested {
                    phase = .sleepingBeforeReset
                    resetAt = clock + .milliseconds(250)
                    busyUntil = nil
                } else {
                    phase = nil
                }
                return []
            case .sleepingBeforeReset?, nil:
                return []
            }
        }
    }
}
