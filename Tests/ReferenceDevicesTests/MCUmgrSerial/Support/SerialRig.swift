import ReferenceDevices
import Transport

/// Drives an `MCUmgrSerialDevice` the way the pty glue will: bytes go in paced at the baud rate
/// (10 bits per byte), in pieces of at most `chunk` bytes, and the device's deadlines are honoured
/// between them. The test's clock is `now`.
struct SerialRig {
    var device: MCUmgrSerialDevice
    var now = MonotonicInstant.zero
    var chunk = 16
    /// Every output, in order.
    var log: [SerialLineOutput] = []
    var reader = TestConsole.Reader()
    /// Raw bytes the device transmitted (for raw framing).
    var transmitted: [UInt8] = []

    init(_ configuration: MCUmgrSerialConfiguration, holdingRecoveryButton: Bool = false) {
        device = MCUmgrSerialDevice(configuration: configuration, now: .zero, holdingRecoveryButton: holdingRecoveryButton)
        settle()
    }

    var byteTime: Duration { .nanoseconds(10 * 1_000_000_000 / Int64(device.configuration.baudRate)) }

    private mutating func record(_ outputs: [SerialLineOutput]) {
        log += outputs
        for case .transmit(let bytes) in outputs {
            transmitted += bytes
            reader.feed(bytes)
        }
    }

    /// Runs the device's own deadlines up to `limit`.
    mutating func run(until limit: MonotonicInstant) {
        while let deadline = device.nextDeadline, deadline <= limit {
            now = max(now, deadline)
            record(device.advance(to: now))
        }
        now = max(now, limit)
        record(device.advance(to: now))
    }

    mutating func wait(_ duration: Duration) { run(until: now + duration) }

    /// Until nothing is due (or `limit` passes).
    mutating func settle(limit: Duration = .seconds(120)) {
        let end = now + limit
        while let deadline = device.nextDeadline, deadline <= end {
            now = max(now, deadline)
            record(device.advance(to: now))
        }
    }

    /// Sends bytes as the line would carry them.
    mutating func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let piece = Array(bytes[offset..<min(bytes.count, offset + chunk)])
            run(until: now + byteTime * piece.count)
            record(device.receive(piece, now: now))
            offset += piece.count
        }
    }

    /// Sends one request framed for the console and waits for the answers (SMP packets parsed).
    mutating func request(_ smp: TestSMP, raw: Bool = false) -> [TestSMP] {
        let before = reader.packets.count
        let rawBefore = transmitted.count
        send(raw ? smp.bytes : TestConsole.frame(smp.bytes))
        settleUntilQuiet()
        if raw { return TestSMP.splitRaw(Array(transmitted[rawBefore...])) }
        return reader.packets[before...].compactMap { TestSMP(parsing: $0) }
    }

    /// Runs deadlines while the device is busy with requests (not through a scheduled reset).
    mutating func settleUntilQuiet(limit: Duration = .seconds(30)) {
        let end = now + limit
        while let deadline = device.nextDeadline, deadline <= end, device.mode != .booting {
            let before = log.count
            let resetDeadline = deadline
            now = max(now, resetDeadline)
            record(device.advance(to: now))
            if log[before...].contains(.detach) { break }
        }
    }
}

extension TestSMP {
    /// Raw responses back to back: header length says where each ends.
    static func splitRaw(_ bytes: [UInt8]) -> [TestSMP] {
        var result: [TestSMP] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard offset + 8 + length <= bytes.count, let smp = TestSMP(parsing: Array(bytes[offset..<offset + 8 + length])) else { break }
            result.append(smp)
            offset += 8 + length
        }
        return result
    }
}
