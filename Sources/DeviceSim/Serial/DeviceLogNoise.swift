import Transport

/// What else a device writes on the UART it shares with SMP: Zephyr log lines, and a frame garbled
/// on the wire. Deterministic, so a run can be repeated.
enum DeviceLogNoise {
    /// One log line as Zephyr's log subsystem prints it on a UART backend.
    static func line(number: Int, at now: MonotonicInstant) -> [UInt8] {
        let milliseconds = Int(clamping: now.sinceOrigin.components.seconds * 1000
            + now.sinceOrigin.components.attoseconds / 1_000_000_000_000_000)
        let seconds = milliseconds / 1000
        let stamp = "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(milliseconds % 1000, 3)),000"
        return Array("[\(stamp)] <inf> app: heartbeat \(number)\r\n".utf8)
    }

    /// Changes one base64 character in the middle of a frame (never a marker or a newline), so its
    /// CRC or its base64 fails and the receiver drops the frame.
    static func garble(_ frame: inout [UInt8]) {
        guard !frame.isEmpty else { return }
        var index = frame.count / 2
        while index < frame.count, !isBase64Letter(frame[index]) { index += 1 }
        guard index < frame.count else { return }
        frame[index] = frame[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
    }

    private static func isBase64Letter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
