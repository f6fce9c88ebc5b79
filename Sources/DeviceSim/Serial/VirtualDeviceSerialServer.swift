import DFUCore
import Transport

/// Serves one `VirtualDevice` on a serial line the way Zephyr's SMP UART transport does: requests
/// decoded from the byte stream (console framing or raw, `SMPStreamFramer`), each packet handed to
/// the device whole, each reply framed and written back, so `dfu --device serial:PATH`, smpmgr or
/// any SMP client on a tty can talk to it. MCUboot's serial recovery answers on the same line
/// when it holds the device (`SerialVirtualDevice`: powered up with the recovery button held, or
/// the application's reset with `boot_mode: 1`).
///
/// What a pty does not do, the server models:
/// - **Line rate.** Bytes take 10 bits of line time each way at `baud` (`SimSerialLine`): the
///   server reads no faster than the line carries, so a client that writes ahead is held back by
///   the port's buffers filling, as a real UART holds it; replies leave no faster either.
/// - **USB resets.** With `vanishesOnReset` the port closes while the device resets and is opened
///   again at the same path once it has booted; otherwise (a UART) it stays and carries nothing.
/// - **Log output** every `noiseEvery` replies of the application (MCUboot logs elsewhere), and a
///   **garbled reply** every `garbleEvery`.
///
/// The device's buffers (`buf_count`) and everything else it does are the device's own: the
/// server makes no protocol decisions.
public actor VirtualDeviceSerialServer {
    public nonisolated let identity: PeerIdentity
    public nonisolated let serving: SerialServeOptions
    private let clock: LinkClock
    private let observer: @Sendable (SerialServerEvent) -> Void
    private let line: SimSerialLine
    private var device: SerialVirtualDevice
    private var framer: SMPStreamFramer
    /// Replies and log lines, in order.
    private var outbox: [(bytes: [UInt8], after: Duration, framed: Bool)] = []
    private var draining = false
    /// Replies and ignored requests so far: the count log lines and garbling go by.
    private var replies = 0
    private var timer = DeadlineTimer()
    private var finished = false

    /// Serves `device` (built with `framing: .datagram`: one packet per write) on `port`; `reopen`
    /// opens the port again after a USB-style vanish. Call `start()` next.
    public init(device: VirtualDevice, port: any SimSerialPort, serving: SerialServeOptions, clock: LinkClock = .realTime(),
                reopen: @escaping SimSerialPortOpener, observer: @escaping @Sendable (SerialServerEvent) -> Void = { _ in }) {
        self.device = SerialVirtualDevice(application: device, framing: serving.framing, startsInRecovery: serving.startsInRecovery,
                                          applicationSilent: serving.applicationSilent)
        self.serving = serving
        self.clock = clock
        self.observer = observer
        identity = device.identity
        framer = SMPStreamFramer(framing: serving.framing)
        line = SimSerialLine(port: port, baud: serving.baud, clock: clock, reopen: reopen)
    }

    /// The device as it is now (a copy): the application's state, flash and boots.
    public var snapshot: VirtualDevice { device.application }
    /// Whether MCUboot's serial recovery holds the device now.
    public var inRecovery: Bool { device.inRecovery }

    /// Starts reading the port. Calling it again does nothing.
    public func start() async {
        guard !finished else { return }
        _ = await line.start(delivering: { [weak self] chunk in await self?.receive(chunk) })
    }

    /// Stops serving and closes the port. Idempotent.
    public func stop() async {
        finished = true
        timer.cancel()
        outbox.removeAll()
        await line.stop()
    }

    /// Returns once the server has stopped.
    public func waitUntilStopped() async {
        await line.waitUntilStopped()
    }

    // MARK: - Receiving

    /// Bytes the line has carried.
    private func receive(_ bytes: [UInt8]) {
        guard !finished else { return }
        let now = clock.now
        var outputs = device.tick(now: now)
        if device.isDown {
            perform(outputs)
            framer = SMPStreamFramer(framing: serving.framing)
            observer(.ignoredWhileDown(size: bytes.count))
            return
        }
        for output in framer.receive(bytes) {
            switch output {
            case .packet(let packet):
                observer(.received(size: packet.count, header: try? SMPHeader(decoding: packet)))
                outputs += device.receive(packet, now: now)
            case .text:
                continue // a client's own text is nothing to the device
            case .dropped(let reason):
                observer(.inputDropped(reason))
            }
        }
        perform(outputs)
    }

    private func tick() {
        timer.fired()
        guard !finished else { return }
        perform(device.tick(now: clock.now))
    }

    private func perform(_ outputs: [SerialVirtualDevice.Output]) {
        for output in outputs {
            switch output {
            case .send(let bytes, let after):
                enqueue(bytes, after: after, framed: true)
            case .linkGlitch:
                if serving.vanishesOnReset { Task { await self.vanishAndReturn() } }
            case .resetting:
                outbox.removeAll()
                if serving.vanishesOnReset { Task { await self.vanish() } }
            case .online:
                if serving.vanishesOnReset { Task { await self.comeBack() } }
            case .ignored(let size):
                observer(.ignoredBySilentApplication(size: size))
                replies += 1
                if let line = logLine() { enqueue(line, after: .zero, framed: false) }
            case .event(let event):
                observer(event)
            }
        }
        armTimer()
    }

    private func armTimer() {
        timer.arm(at: finished ? nil : device.nextDeadline, on: clock) { [weak self] in await self?.tick() }
    }

    // MARK: - The port vanishing

    private func vanish() async {
        if await line.vanish() { observer(.portVanished) }
    }

    private func comeBack() async {
        switch await line.reopenPort() {
        case nil:
            return
        case .success:
            framer = SMPStreamFramer(framing: serving.framing)
            await line.listen()
            observer(.portBack)
        case .failure(let error):
            observer(.portFailed(error.description))
        }
    }

    private func vanishAndReturn() async {
        await vanish()
        await comeBack()
    }

    // MARK: - Sending

    private func enqueue(_ bytes: [UInt8], after: Duration, framed: Bool) {
        outbox.append((bytes, after, framed))
        guard !draining else { return }
        draining = true
        Task { await self.drain() }
    }

    /// The log line due after the latest reply, if any: the application's logging shares the
    /// UART (MCUboot's recovery logs elsewhere).
    private func logLine() -> [UInt8]? {
        guard !device.inRecovery, let every = serving.noiseEvery, every > 0, replies % every == 0 else { return nil }
        return DeviceLogNoise.line(number: replies / every, at: clock.now)
    }

    /// Writes the replies in order, each when the line has carried the ones before it.
    private func drain() async {
        writing: while !outbox.isEmpty, !finished {
            let (packet, after, framed) = outbox.removeFirst()
            do {
                if after > .zero { try await clock.sleep(until: clock.now.advanced(by: after)) }
            } catch {
                break
            }
            guard framed else {
                if await line.transmit(packet) == .interrupted { break }
                continue
            }
            replies += 1
            var wire = logLine() ?? []
            guard var framedPacket = try? framer.frame(packet) else { continue }
            if let every = serving.garbleEvery, every > 0, replies % every == 0 {
                DeviceLogNoise.garble(&framedPacket)
                observer(.garbled(replyNumber: replies))
            }
            wire += framedPacket
            switch await line.transmit(wire) {
            case .interrupted: break writing
            case .sent: observer(.replied(size: packet.count, header: try? SMPHeader(decoding: packet)))
            case .lost: continue
            }
        }
        draining = false
    }
}
