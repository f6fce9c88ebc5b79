import DFUCore
import Transport

/// Serves the virtual nRF52 on a serial line as an nRF5 SDK bootloader built with the UART or USB
/// DFU transport does (`NordicSerialDevice`), so `dfu --device serial:PATH` with a Nordic
/// package, `nrfutil dfu serial` or any client of that protocol can update it. The device starts
/// in its bootloader, as a serial-only board (the nRF52840 Dongle) does when its reset button put
/// it there; after the update (or an abort, or the inactivity timeout) it runs its application,
/// which reads nothing on the line.
///
/// What a pty does not do, the server models, as `VirtualDeviceSerialServer` does for SMP:
/// - **Line rate.** Bytes take 10 bits of line time each way at `baud` (`LinePacer`): the server
///   reads no faster than the line carries, so a client that writes ahead is held back by the
///   port's buffers filling; answers leave no faster either.
/// - **USB resets.** With `vanishesOnReset` (`usb`, which also means the USB transport's MTU)
///   the port closes when the device resets, after the answers before the reset went out, and is
///   opened again at the same path once it has booted; `drop=` closes it and opens it at once (a
///   USB glitch). A UART stays and carries nothing while the device resets.
public actor NordicSerialServer {
    public nonisolated let serving: SerialServeOptions
    private let clock: LinkClock
    private let observer: @Sendable (NordicSerialServerEvent) -> Void
    private let line: SimSerialLine
    private var device: NordicSerialDevice
    /// In order: answers, and the port vanishing or coming back, which must follow what was queued.
    private enum Outgoing: Sendable {
        case bytes([UInt8])
        case vanish
        case comeBack
        case glitch
    }
    private var outbox: [Outgoing] = []
    private var draining = false
    private var timer = DeadlineTimer()
    private var finished = false
    /// Set from the moment the device drops a USB port until it is back.
    private var closing = false

    /// Serves `model` on `port`; `reopen` opens the port again after a USB-style vanish. Call
    /// `start()` next.
    public init(model: NordicVirtualDevice, port: any SimSerialPort, serving: SerialServeOptions, clock: LinkClock = .realTime(),
                reopen: @escaping SimSerialPortOpener, observer: @escaping @Sendable (NordicSerialServerEvent) -> Void = { _ in }) {
        device = NordicSerialDevice(model: model, usb: serving.vanishesOnReset)
        self.serving = serving
        self.clock = clock
        self.observer = observer
        line = SimSerialLine(port: port, baud: serving.baud, clock: clock, reopen: reopen)
    }

    /// The device as it is now (a copy).
    public var snapshot: NordicVirtualDevice { device.model }
    /// What runs now, in words.
    public var running: String { device.running }
    /// The MTU the bootloader reports.
    public nonisolated var mtu: UInt16 { serving.vanishesOnReset ? NordicSerialLimits.usbMTU : NordicSerialLimits.uartMTU }

    /// Starts reading the port. Calling it again does nothing.
    public func start() async {
        guard !finished else { return }
        guard await line.start(delivering: { [weak self] chunk in await self?.arrive(chunk) }) else { return }
        armTimer()
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

    /// Power removed and restored at once (`NordicSerialDevice.powerCycle`); `enterBootloader`:
    /// the DFU button held, so the bootloader starts in DFU mode. A UART port stays open.
    public func powerCycle(enterBootloader: Bool) {
        guard !finished else { return }
        perform(device.powerCycle(enterBootloader: enterBootloader, now: clock.now))
    }

    // MARK: - Receiving

    /// Bytes the line has carried: to the device, unless the port is going.
    private func arrive(_ chunk: [UInt8]) {
        guard !finished, !closing else { return }
        perform(device.receive(chunk, now: clock.now))
    }

    private func tick() {
        timer.fired()
        guard !finished else { return }
        perform(device.tick(now: clock.now))
    }

    private func perform(_ outputs: [NordicSerialDevice.Output]) {
        for output in outputs {
            switch output {
            case .send(let bytes): enqueue(.bytes(bytes))
            case .resetting: if serving.vanishesOnReset { close(then: .vanish) }
            case .online: if serving.vanishesOnReset { enqueue(.comeBack) }
            case .linkDropped: if serving.vanishesOnReset { close(then: .glitch) }
            case .event(let event): observer(event)
            }
        }
        armTimer()
    }

    private func armTimer() {
        timer.arm(at: finished ? nil : device.nextDeadline, on: clock) { [weak self] in await self?.tick() }
    }

    /// The USB port is going: nothing more is read from it (what the client writes meanwhile is
    /// lost with it), and `item` follows the answers already queued.
    private func close(then item: Outgoing) {
        closing = true
        let line = line
        Task { await line.stopReading() }
        enqueue(item)
    }

    // MARK: - Sending

    private func enqueue(_ item: Outgoing) {
        outbox.append(item)
        guard !draining else { return }
        draining = true
        Task { await self.drain() }
    }

    /// Writes the answers in order, each when the line has carried the ones before it, and lets
    /// the port vanish or come back where the device's resets fall between them.
    private func drain() async {
        lines: while !outbox.isEmpty, !finished {
            switch outbox.removeFirst() {
            case .bytes(let bytes):
                if await line.transmit(bytes) == .interrupted { break lines }
            case .vanish:
                guard await settle() else { break lines }
                await vanish()
            case .comeBack:
                await comeBack()
            case .glitch:
                guard await settle() else { break lines }
                await vanish()
                await comeBack()
            }
        }
        draining = false
    }

    /// The moment between the last answer and the port going: the bootloader writes its settings
    /// page before it resets (`nrf_dfu_settings_backup`), so the host has read that answer.
    static let resetDelay = Duration.milliseconds(20)

    /// Waits `resetDelay`; false when the wait was cut short (the server stops).
    private func settle() async -> Bool {
        do {
            try await clock.sleep(until: clock.now.advanced(by: Self.resetDelay))
            return true
        } catch {
            return false
        }
    }

    private func vanish() async {
        if await line.vanish() { observer(.portVanished) }
    }

    private func comeBack() async {
        switch await line.reopenPort() {
        case nil:
            return
        case .success:
            closing = false
            await line.listen()
            observer(.portBack)
        case .failure(let error):
            observer(.portFailed(error.description))
        }
    }
}
