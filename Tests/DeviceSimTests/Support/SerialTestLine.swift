import DFUCore
import DeviceSim
import Synchronization
import Transport

/// A serial line in memory between a test, as the client, and `VirtualDeviceSerialServer`: the
/// test writes SMP packets framed as a client frames them (`SMPStreamFramer`: the console
/// framing's encoder, or raw), and reads the device's replies decoded the same way. The device
/// end may close and open again (a USB port vanishing while its board resets).
final class SerialTestLine: Sendable {
    let framing: SMPStreamFraming
    private let state: Mutex<State>

    private struct State {
        var device: (id: Int, input: AsyncStream<[UInt8]>.Continuation)?
        var opened = 0
        var closed = 0
        var decoder: SMPStreamFramer
        var replies: [[UInt8]] = []
        var text: [UInt8] = []
    }

    init(framing: SMPStreamFraming = .console) {
        self.framing = framing
        state = Mutex(State(decoder: SMPStreamFramer(framing: framing)))
    }

    /// Opens the device's end (the port appears).
    func openDeviceEnd() -> any SimSerialPort {
        let (input, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let id = state.withLock { state in
            state.device?.input.finish()
            state.opened += 1
            state.device = (state.opened, continuation)
            return state.opened
        }
        return Port(line: self, id: id, received: input)
    }

    /// An opener for the server: the same line, opened again.
    var opener: SimSerialPortOpener {
        { () async throws(SimSerialPortError) -> any SimSerialPort in self.openDeviceEnd() }
    }

    /// Times the device end was opened and closed.
    var openings: (opened: Int, closed: Int) { state.withLock { ($0.opened, $0.closed) } }

    /// Log text the device wrote between frames so far.
    var logText: String { String(decoding: state.withLock { $0.text }, as: UTF8.self) }

    /// Writes `packet` framed; false when the port is closed.
    @discardableResult
    func write(_ packet: [UInt8]) throws -> Bool {
        writeBytes(try SMPStreamFramer(framing: framing).frame(packet))
    }

    /// Writes bytes as they are.
    @discardableResult
    func writeBytes(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard let device = state.device else { return false }
            device.input.yield(bytes)
            return true
        }
    }

    /// The next reply packet, waiting up to `timeout`; nil if none came.
    func nextReply(within timeout: Duration = .seconds(5)) async -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let reply: [UInt8]? = state.withLock { state in
                state.replies.isEmpty ? nil : state.replies.removeFirst()
            }
            if let reply { return reply }
            guard ContinuousClock.now < deadline else { return nil }
            do { try await Task.sleep(for: .milliseconds(2)) } catch { return nil }
        }
    }

    /// Sends one request and returns the reply's body; nil when no reply came within `timeout`.
    func request(_ group: SMPGroup, _ command: UInt8, op: SMPOp = .read, sequence: UInt8 = 0, body: CBORMap = [:],
                 within timeout: Duration = .seconds(5)) async throws -> SMPPacket? {
        let packet = SMPPacket(op: op, group: group, command: command, sequence: sequence, body: body)
        try write(try packet.encoded())
        guard let reply = await nextReply(within: timeout) else { return nil }
        return try SMPPacket(decoding: reply)
    }

    private func deviceSent(_ bytes: [UInt8], from id: Int) -> Bool {
        state.withLock { state in
            guard state.device?.id == id else { return false }
            for output in state.decoder.receive(bytes) {
                switch output {
                case .packet(let packet): state.replies.append(packet)
                case .text(let text): state.text += text
                case .dropped: continue
                }
            }
            return true
        }
    }

    /// The device end closing: what the client half-read of it is gone with it.
    private func deviceClosed(_ id: Int) {
        let input = state.withLock { state -> AsyncStream<[UInt8]>.Continuation? in
            guard state.device?.id == id else { return nil }
            defer { (state.device, state.decoder) = (nil, SMPStreamFramer(framing: framing)) }
            state.closed += 1
            return state.device?.input
        }
        input?.finish()
    }

    private struct Port: SimSerialPort {
        let line: SerialTestLine
        let id: Int
        let received: AsyncStream<[UInt8]>
        func send(_ bytes: [UInt8]) async -> Bool { line.deviceSent(bytes, from: id) }
        func close() async { line.deviceClosed(id) }
    }
}
