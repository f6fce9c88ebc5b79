import Transport

/// The bootloader over serial: the receive interrupt decodes frames and queues requests
/// (nrf_dfu_serial_uart.c / _usb.c `on_rx_complete`, nrf_dfu_req_handler.c
/// `nrf_dfu_req_handler_on_req` into the app_scheduler queue), and the main loop (nrf_bootloader.c
/// `loop_forever`, `app_sched_execute`) handles them one at a time, in order, and answers.
extension SDKSerialDevice {
    /// Bytes in the receive interrupt. The main loop runs after every frame: with no processing time
    /// the queue never holds more than the frame just decoded.
    mutating func receiveInBootloader(_ bytes: [UInt8], now: MonotonicInstant) -> [SerialLineOutput] {
        guard case .bootloader(var run) = image else { return [] }
        image = .modifying
        var out: [SerialLineOutput] = []
        for (index, byte) in bytes.enumerated() {
            switch run.transport.receive(byte) {
            case .pending:
                continue
            case .bufferFull:
                if counters.bytesLost[.decoderBufferFull, default: 0] == 0 {
                    out.append(.note("the SLIP decoder's buffer is full: every byte is refused until a reset"))
                }
                counters.bytesLost[.decoderBufferFull, default: 0] += 1
            case .invalidEscape:
                counters.framesDropped[.invalidEscape, default: 0] += 1
                out.append(.note("bad SLIP escape: the frame is dropped up to the next END"))
            case .frame(let request):
                enqueue(request, in: &run, now: now, &out)
                if let resetAt = runMainLoop(&run, to: now, &out) {
                    counters.bytesLost[.resetting, default: 0] += bytes.count - index - 1
                    return out + reset(at: resetAt, intoBootloader: false)
                }
            }
        }
        image = .bootloader(run)
        return out
    }

    /// `nrf_dfu_serial_on_packet_received` hands the request on; then `on_rx_complete` takes a new
    /// receive buffer.
    private mutating func enqueue(_ request: SerialRequest, in run: inout SerialBootloaderRun, now: MonotonicInstant,
                                  _ out: inout [SerialLineOutput]) {
        counters.framesDecoded += 1
        if request.frameLength == 0 {
            counters.emptyFrames += 1
            out.append(.note("empty frame: handled as op code 0x\(hexDigits(request.request.opCode, width: 2)), left in the buffer"))
        }
        if run.queue.count < configuration.schedulerQueueSize {
            run.queue.append(SerialBootloaderRun.Queued(request: request, at: now))
        } else {
            counters.framesDropped[.schedulerFull, default: 0] += 1
            if request.payload != nil { counters.writeBuffersLeaked += 1 }
            out.append(.note("the scheduler's queue is full: the request is lost"))
        }
        if !run.transport.takeNextBuffer() {
            counters.receiveBufferShortages += 1
            out.append(.note("no free receive buffer: the next frame is appended to this one"))
        }
    }

    /// Runs the main loop up to `now`. Returns the time of a reset it reached (DFU completed or
    /// aborted, inactivity timeout); the caller carries it out.
    mutating func runMainLoop(_ run: inout SerialBootloaderRun, to now: MonotonicInstant,
                              _ out: inout [SerialLineOutput]) -> MonotonicInstant? {
        while let due = run.nextDeadline, due <= now {
            if let resetAt = run.resetAt { return resetAt }
            if let busy = run.busy, busy.until == due {
                finish(&run, &out)
            } else if run.busy == nil, let first = run.queue.first, max(run.idleSince, first.at) == due {
                start(&run, at: due)
            } else if run.inactivityDeadline == due {
                // nrf_bootloader.c `inactivity_timeout`: reset, RAM progress not stored.
                out.append(.note("inactivity timeout: the bootloader resets"))
                return due
            } else {
                return nil
            }
        }
        return nil
    }

    /// `nrf_dfu_req_handler_req_process` for the first queued request. Its effects are applied now;
    /// its answer waits until the main loop is done with it.
    private mutating func start(_ run: inout SerialBootloaderRun, at now: MonotonicInstant) {
        let queued = run.queue.removeFirst()
        var request = queued.request.request
        if let payload = queued.request.payload { request.data = run.transport.data(of: payload) }
        let outcome = run.core.process(request, flash: &flash)
        counters.requestsHandled[request.opCode, default: 0] += 1
        counters.bytesReceived += outcome.acceptedBytes
        switch outcome.executed {
        case .command?: counters.commandObjectsExecuted += 1
        case .data?: counters.dataObjectsExecuted += 1
        case nil: break
        }
        let timeout = configuration.bootloader.inactivityTimeout
        if outcome.restartsInactivityTimer, timeout > .zero { run.inactivityDeadline = now.advanced(by: timeout) }
        let duration = processingTime(request, outcome, object: run.core.currentObject)
        run.busy = SerialBootloaderRun.Busy(request: queued.request, outcome: outcome, until: now.advanced(by: duration))
    }

    /// The main loop is done with its request: the Write's buffer goes back (if the handler freed
    /// it), the answer goes out (if the transmitter is free), and a completed or aborted DFU resets
    /// the device once the answer has left.
    private mutating func finish(_ run: inout SerialBootloaderRun, _ out: inout [SerialLineOutput]) {
        guard let busy = run.busy else { return }
        run.busy = nil
        run.idleSince = busy.until
        if let payload = busy.request.payload {
            if busy.outcome.releasesWriteBuffer {
                run.transport.free(payload)
            } else {
                counters.writeBuffersLeaked += 1
            }
        }
        if let response = busy.outcome.response, let frame = run.transport.answer(to: response) {
            if busy.until < run.transmittingUntil {
                // rsp_send: nrfx_uarte_tx / app_usbd_cdc_acm_write answer BUSY; the answer is lost.
                counters.responsesLost += 1
                out.append(.note("answer to 0x\(hexDigits(response.opCode, width: 2)) lost: the transmitter is busy"))
            } else {
                out.append(.transmit(frame))
                counters.responsesSent += 1
                if response.opCode == DFUOpCode.write { counters.receiptsSent += 1 }
                run.transmittingUntil = busy.until.advanced(by: configuration.transmitTime(frame.count))
            }
        }
        if busy.outcome.resets { run.resetAt = max(busy.until, run.transmittingUntil) }
    }

    /// How long the main loop is busy with a handled request (`SDKSerialTiming`).
    private func processingTime(_ request: DFURequest, _ outcome: DFUOutcome, object: SDKObjectType?) -> Duration {
        let timing = configuration.timing
        let bootloader = configuration.bootloader
        var time = timing.perRequest
        switch request.opCode {
        case DFUOpCode.write where object == .data:
            time += timing.wordWrite * (outcome.acceptedBytes / 4)
        case DFUOpCode.create where object == .data && outcome.response?.status == .success:
            let pageSize = max(1, Int(bootloader.pageSize))
            time += timing.pageErase * ((Int(request.objectSize) + pageSize - 1) / pageSize)
        case DFUOpCode.execute:
            let settingsWritten = outcome.executed == .command
                || (outcome.executed == .data && (outcome.resets || bootloader.saveProgressInFlash))
            // nrf_dfu_settings_write_and_backup (17) erases two pages, nrf_dfu_settings_write (15) one.
            if settingsWritten { time += timing.pageErase * (bootloader.sdkVersion == .v15_0 ? 1 : 2) }
        default:
            break
        }
        return time
    }
}
