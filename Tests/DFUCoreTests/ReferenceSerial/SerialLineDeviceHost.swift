import DeviceSim
import ReferenceDevices
import Transport

/// Serves a reference model of a serial device (`SerialLineDevice`, written from the firmware's
/// sources alone) on the device end of a `SerialPipe`, as a UART would carry it: the bytes the
/// client writes reach the model no faster than `baud` carries them (10 bits a byte), in pieces
/// of at most `fifo` bytes stamped with the time each piece finished arriving (a UART's receive
/// interrupt); what the model transmits leaves at the same rate. `.detach` closes the device end
/// when the port is a USB one (it vanishes while the device resets), once what the model
/// transmitted before it has left (the model resets "once the answer has left": the final
/// Execute's answer, which the SDK sends before it writes its settings and resets); `.attach` opens
/// it again. Real time: the engine sees a reset only by the device's silence.
actor SerialLineDeviceHost {
    private var device: any SerialLineDevice
    private let pipe: SerialPipe
    private let clock = LinkClock.realTime()
    private let nanosecondsPerByte: Int64
    private let fifo: Int
    private let vanishesOnReset: Bool
    private var port: (any SimSerialPort)?
    private var reader: Task<Void, Never>?
    private var timer: Task<Void, Never>?
    private var lastInput: MonotonicInstant = .zero
    private var lastTime: MonotonicInstant = .zero
    private var txFreeAt: MonotonicInstant = .zero
    private var outbox: [[UInt8]] = []
    private var draining = false
    /// A chunk is being fed: the model's time is the line's, not the wall clock's, until it ends.
    private var feeding = false
    /// A detached USB port, closed once the answers transmitted before the detach have left.
    private var closing: (any SimSerialPort)?
    private(set) var notes: [String] = []

    init(_ device: any SerialLineDevice, pipe: SerialPipe, baud: Int, fifo: Int = 32, vanishesOnReset: Bool) {
        self.device = device
        self.pipe = pipe
        nanosecondsPerByte = 10 * 1_000_000_000 / Int64(max(baud, 1))
        self.fifo = max(fifo, 1)
        self.vanishesOnReset = vanishesOnReset
    }

    /// The model's clock: the host's, so the model is made with `now` as its power-on.
    nonisolated var now: MonotonicInstant { clock.now }

    func start() {
        open()
        armTimer()
    }

    func stop() async {
        reader?.cancel()
        timer?.cancel()
        await port?.close()
        port = nil
    }

    /// The model as it is now.
    func inspect<T: Sendable>(_ read: (any SerialLineDevice) -> T) -> T { read(device) }

    private func open() {
        let opened = pipe.openDeviceEnd()
        port = opened
        let chunks = opened.received
        reader = Task { [weak self] in
            for await chunk in chunks {
                guard let self else { return }
                await self.arrive(chunk)
            }
        }
    }

    /// Feeds `chunk` piece by piece, each once the line has carried it (its last byte's time), so
    /// the model's own work (decoding lines, freeing buffers) runs between pieces as on a device.
    ///
    /// On a busy machine a sleep overruns, so a piece is fed after its stamp; the model's timers
    /// then run up to each piece's stamp here (not at the wall clock's later time, which would
    /// stamp the rest of the chunk as one burst a UART cannot deliver and overflow its buffers).
    private func arrive(_ chunk: [UInt8]) async {
        let start = max(lastInput, clock.now)
        lastInput = start.advanced(by: .nanoseconds(nanosecondsPerByte * Int64(chunk.count)))
        feeding = true
        defer {
            feeding = false
            armTimer()
        }
        var offset = 0
        while offset < chunk.count {
            let next = min(offset + fifo, chunk.count)
            let at = start.advanced(by: .nanoseconds(nanosecondsPerByte * Int64(next)))
            if at > clock.now {
                do { try await clock.sleep(until: at) } catch { return }
            }
            let stamp = monotonic(at)
            perform(device.advance(to: stamp))
            perform(device.receive(Array(chunk[offset..<next]), now: stamp))
            offset = next
        }
    }

    /// Times given to the model never go back (a timer tick may have run past a piece's stamp).
    private func monotonic(_ instant: MonotonicInstant) -> MonotonicInstant {
        lastTime = max(lastTime, instant)
        return lastTime
    }

    private func tick() {
        // While a chunk is fed its pieces move the model's time; the chunk's end arms the timer.
        guard !feeding else { return }
        perform(device.advance(to: monotonic(clock.now)))
        armTimer()
    }

    private func armTimer() {
        timer?.cancel()
        guard let deadline = device.nextDeadline else { return }
        let clock = clock
        timer = Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.tick()
        }
    }

    private func perform(_ outputs: [SerialLineOutput]) {
        for output in outputs {
            switch output {
            case .transmit(let bytes):
                outbox.append(bytes)
                if !draining {
                    draining = true
                    Task { await self.drain() }
                }
            case .detach:
                guard vanishesOnReset, let open = port else { continue }
                port = nil
                reader?.cancel()
                if draining {
                    closing = open
                } else {
                    Task { await open.close() }
                }
            case .attach:
                if vanishesOnReset, port == nil { open() }
            case .note(let text):
                notes.append(text)
            }
        }
    }

    private func drain() async {
        while !outbox.isEmpty {
            let bytes = outbox.removeFirst()
            // The port the frame leaves on: one detached meanwhile still carries it.
            let target = port ?? closing
            txFreeAt = max(txFreeAt, clock.now).advanced(by: .nanoseconds(nanosecondsPerByte * Int64(bytes.count)))
            do { try await clock.sleep(until: txFreeAt) } catch { break }
            _ = await target?.send(bytes)
        }
        draining = false
        if let detached = closing {
            closing = nil
            await detached.close()
        }
    }
}
