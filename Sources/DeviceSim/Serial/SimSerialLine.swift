import Transport

/// The port end of a serial server of the sim (`VirtualDeviceSerialServer`, `NordicSerialServer`):
/// it owns the port, reads it no faster than the line carries and writes no faster either (10 bits
/// a byte each way at `baud`, `LinePacer`), and lets a USB-style port vanish and come back at the
/// same path. What the bytes mean is the server's.
///
/// Reading is held back while a chunk waits for its line time, so a client that writes ahead is
/// held back by the port's buffers filling, as a real UART holds it.
actor SimSerialLine {
    /// What a write to the line came to.
    enum Transmission: Sendable, Equatable {
        case sent
        /// No port (it vanished), or the port refused the bytes: they are lost, as on a wire
        /// nobody listens to.
        case lost
        /// The wait for the line was cut short: the server stops.
        case interrupted
    }

    private let clock: LinkClock
    private let reopen: SimSerialPortOpener
    private var port: (any SimSerialPort)?
    private var input: LinePacer
    private var output: LinePacer
    private var deliver: (@Sendable ([UInt8]) async -> Void)?
    private var reader: Task<Void, Never>?
    /// Counts readers, so one that was stopped delivers nothing more.
    private var readerNumber = 0
    private var finished = false
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Serves on `port`; `reopen` opens the port again after a vanish.
    init(port: any SimSerialPort, baud: Int, clock: LinkClock, reopen: @escaping SimSerialPortOpener) {
        self.port = port
        self.clock = clock
        self.reopen = reopen
        input = LinePacer(baud: baud)
        output = LinePacer(baud: baud)
    }

    /// Starts reading: each chunk goes to `deliver` once the line has carried it, one at a time.
    /// Returns false (and does nothing) when the line reads already or has stopped.
    func start(delivering deliver: @escaping @Sendable ([UInt8]) async -> Void) -> Bool {
        guard self.deliver == nil, !finished else { return false }
        self.deliver = deliver
        listen()
        return true
    }

    /// Reads the port again after `stopReading` or a vanish; does nothing while it reads or has no port.
    func listen() {
        guard reader == nil, !finished, let port, let deliver else { return }
        let chunks = port.received
        let clock = clock
        readerNumber += 1
        let number = readerNumber
        // Weak: a server nobody holds closes nothing by itself, but stops reading.
        reader = Task { [weak self] in
            for await chunk in chunks {
                guard let self, let arrival = await self.arrival(of: chunk, reader: number) else { return }
                do {
                    try await clock.sleep(until: arrival)
                } catch {
                    return
                }
                await deliver(chunk)
            }
        }
    }

    /// When the line has carried `chunk`; nil once that reader was stopped.
    private func arrival(of chunk: [UInt8], reader number: Int) -> MonotonicInstant? {
        guard !finished, reader != nil, number == readerNumber else { return nil }
        return input.carry(chunk.count, from: clock.now)
    }

    /// Nothing more is read from the port (what the client writes meanwhile waits in the port, or
    /// is lost with it when it vanishes).
    func stopReading() {
        reader?.cancel()
        reader = nil
    }

    /// Writes `bytes` once the line has carried what went before.
    func transmit(_ bytes: [UInt8]) async -> Transmission {
        let done = output.carry(bytes.count, from: clock.now)
        do {
            try await clock.sleep(until: done)
        } catch {
            return .interrupted
        }
        guard let port else { return .lost }
        return await port.send(bytes) ? .sent : .lost
    }

    /// Closes the port: the client sees it vanish. False when there was none.
    func vanish() async -> Bool {
        guard let open = port else { return false }
        port = nil
        stopReading()
        await open.close()
        return true
    }

    /// Opens the port again at its path, without reading it yet (`listen`), so the server can
    /// forget what it half-read first. Nil when there is nothing to do (a port is open, or the line
    /// stopped); else whether it opened.
    func reopenPort() async -> Result<Void, SimSerialPortError>? {
        guard port == nil, !finished else { return nil }
        do throws(SimSerialPortError) {
            let fresh = try await reopen()
            guard !finished else {
                await fresh.close()
                return nil
            }
            port = fresh
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Stops reading and closes the port. Idempotent.
    func stop() async {
        stopReading()
        let open = port
        port = nil
        await open?.close()
        guard !finished else { return }
        finished = true
        let waiters = finishWaiters
        finishWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the line has stopped.
    func waitUntilStopped() async {
        if finished { return }
        await withCheckedContinuation { finishWaiters.append($0) }
    }
}
