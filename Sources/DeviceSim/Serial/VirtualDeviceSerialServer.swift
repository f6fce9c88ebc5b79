import DFUCore
import Transport

/// Serves one `VirtualDevice` on a serial line the way Zephyr's SMP UART transport does: requests
/// decoded from the byte stream (console framing or raw, `SMPStreamFramer`), each packet handed to
/// the device whole, each reply framed and written back, so `dfu --device serial:PATH`, smpmgr or
/// any SMP client on a tty can talk to it.
///
/// What a pty does not do, the server models:
/// - **Line rate.** Bytes take 10 bits of line time each way at `baud` (`SimSerialLine`): the
///   server reads no faster than the line carries, so a client that writes ahead is held back by
///   the port's buffers filling, as a real UART holds it; replies leave no faster either.
/// - **USB resets.** With `vanishesOnReset` the port closes while the device resets and is opened
///   again at the same path once it has booted; otherwise (a UART) it stays and carries nothing.
/// - **Log output** every `noiseEvery` replies, and a **garbled reply** every `garbleEvery`.
///
/// The device's buffers (`buf_count`) and everything else it does are the device's own: the
/// server makes no protocol decisions. A line has no connection, so the device is told
/// `.connected` before the first packet and after each reset, as over UDP.
public actor VirtualDeviceSerialServer {
    public nonisolated let identity: PeerIdentity
    public nonisolated let serving: SerialServeOptions
    private let clock: LinkClock
    private let observer: @Sendable (SerialServerEvent) -> Void
    private let line: SimSerialLine
    private var device: VirtualDevice
    private var framer: SMPStreamFramer
    private var uploads = UploadWatch()
    private var outbox: [(bytes: [UInt8], after: Duration)] = []
    private var draining = false
    private var replies = 0
    private var timer = DeadlineTimer()
    private var finished = false

    /// Serves `device` (built with `framing: .datagram`: one packet per write) on `port`; `reopen`
    /// opens the port again after a USB-style vanish. Call `start()` next.
    public init(device: VirtualDevice, port: any SimSerialPort, serving: SerialServeOptions, clock: LinkClock = .realTime(),
                reopen: @escaping SimSerialPortOpener, observer: @escaping @Sendable (SerialServerEvent) -> Void = { _ in }) {
        self.device = device
        self.serving = serving
        self.clock = clock
        self.observer = observer
        identity = device.identity
        framer = SMPStreamFramer(framing: serving.framing)
        line = SimSerialLine(port: port, baud: serving.baud, clock: clock, reopen: reopen)
    }

    /// The device as it is now (a copy).
    public var snapshot: VirtualDevice { device }

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
        var actions = device.handle(.tick, now: now)
        if case .booting = device.power {
            perform(actions)
            framer = SMPStreamFramer(framing: serving.framing)
            observer(.ignoredWhileDown(size: bytes.count))
            return
        }
        for output in framer.receive(bytes) {
            switch output {
            case .packet(let packet):
                observer(.received(size: packet.count, header: try? SMPHeader(decoding: packet)))
                if !device.isConnected { actions += device.handle(.connected(notificationSize: nil), now: now) }
                actions += device.handle(.write(packet), now: now)
            case .text:
                continue // a client's own text is nothing to the device
            case .dropped(let reason):
                observer(.inputDropped(reason))
            }
        }
        perform(actions)
    }

    private func tick() {
        timer.fired()
        guard !finished else { return }
        perform(device.handle(.tick, now: clock.now))
    }

    private func perform(_ actions: [VirtualDevice.Action]) {
        if let change = uploads.observe(device.server.uploadSession) { report(change) }
        for action in actions {
            switch action {
            case .notify(let bytes, let after, _):
                if let change = uploads.reply(bytes, session: device.server.uploadSession) { report(change) }
                enqueue(bytes, after: after)
            case .dropLink(let cause):
                // A UART has nothing to close. A USB port vanishes while the device resets; a
                // `disconnect@` fault is a USB glitch: the port goes and comes back at once.
                if serving.vanishesOnReset, cause != .reboot { Task { await self.vanishAndReturn() } }
            case .rebooting(_, let report):
                if let change = uploads.reset() { self.report(change) }
                observer(.rebooting(report))
                outbox.removeAll()
                if serving.vanishesOnReset { Task { await self.vanish() } }
            case .online:
                observer(.online(running: device.runningImage, boot: device.boots.count + 1))
                if serving.vanishesOnReset { Task { await self.comeBack() } }
            case .dropped(let drop):
                observer(.dropped(drop))
            case .faultInjected(let fault):
                observer(.faultInjected(fault))
            }
        }
        armTimer()
    }

    private func report(_ change: UploadWatch.Change) {
        switch change {
        case .started(let length): observer(.uploadStarted(length: length))
        case .completed(let length): observer(.uploadCompleted(length: length))
        case .lost(let offset, let length): observer(.uploadLost(offset: offset, length: length))
        }
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

    private func enqueue(_ packet: [UInt8], after: Duration) {
        outbox.append((packet, after))
        guard !draining else { return }
        draining = true
        Task { await self.drain() }
    }

    /// Writes the replies in order, each when the line has carried the ones before it.
    private func drain() async {
        writing: while !outbox.isEmpty, !finished {
            let (packet, after) = outbox.removeFirst()
            do {
                if after > .zero { try await clock.sleep(until: clock.now.advanced(by: after)) }
            } catch {
                break
            }
            replies += 1
            var wire: [UInt8] = []
            if let every = serving.noiseEvery, every > 0, replies % every == 0 {
                wire += DeviceLogNoise.line(number: replies / every, at: clock.now)
            }
            guard var framed = try? framer.frame(packet) else { continue }
            if let every = serving.garbleEvery, every > 0, replies % every == 0 {
                DeviceLogNoise.garble(&framed)
                observer(.garbled(replyNumber: replies))
            }
            wire += framed
            switch await line.transmit(wire) {
            case .interrupted: break writing
            case .sent: observer(.replied(size: packet.count, header: try? SMPHeader(decoding: packet)))
            case .lost: continue
            }
        }
        draining = false
    }
}
