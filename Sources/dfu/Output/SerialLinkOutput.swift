import DFUCore

/// `dfu info`'s link over a serial port: what matters on a line instead of an ATT MTU (which a
/// serial link only models, as the largest packet its framing could carry): the port, the line
/// (baud, 8N1, flow control), the framing, and the packet size the device's answers allow.
///
///     link               /dev/ttyACM0 at 115200 baud 8N1, console framing (127-byte lines), packets up to 2471 bytes
///     link               /dev/ttyACM0 at 115200 baud 8N1, raw SMP packets, packets up to 380 bytes (buf_size not reported: Zephyr's 384 assumed)
///     link               /dev/ttyACM0 at 115200 baud 8N1, SLIP frames, bootloader MTU 131 bytes (64 bytes per Write Object)
///
/// SMP's buffers (count and size, the window) have their own row; a Nordic bootloader's MTU is
/// the one it reported at connect.
struct SerialLinkOutput {
    let endpoint: SerialEndpoint
    let info: DeviceInfo

    private var isNordic: Bool { info.updateProtocol == .nordic }

    private var smpFraming: SMPStreamFraming { endpoint.raw ? .raw : .console }

    /// `console`, `raw` or `slip`.
    var framing: String { isNordic ? "slip" : smpFraming.rawValue }

    /// Console lines are at most 127 bytes (Zephyr's `MCUMGR_SERIAL_MAX_FRAME`).
    var lineLength: Int? { !isNordic && smpFraming == .console ? SMPSerialFraming.defaultMaximumLineLength : nil }

    /// SMP: the largest request packet, the device's buffer less the framing's share (Zephyr's
    /// default buffer while it reports none); Nordic: object bytes per Write Object.
    var packetSize: Int? {
        if isNordic { return info.nordic?.serial?.writeSize }
        return max(0, (info.facts.bufferSize ?? SMPStreamFraming.assumedBufferSize) - smpFraming.bufferOverhead)
    }

    /// Nordic: the largest SLIP frame the bootloader takes (Get MTU).
    var deviceMTU: Int? { isNordic ? info.nordic?.serial?.mtu : nil }

    var text: String {
        var parts = ["\(endpoint.path) at \(endpoint.baud) baud 8N1" + (endpoint.hardwareFlowControl ? " with RTS/CTS" : "")]
        if isNordic {
            var slip = "SLIP frames"
            if let mtu = deviceMTU, let size = packetSize { slip += ", bootloader MTU \(mtu) bytes (\(size) bytes per Write Object)" }
            parts.append(slip)
        } else {
            parts.append(lineLength.map { "console framing (\($0)-byte lines)" } ?? "raw SMP packets")
            if let size = packetSize {
                parts.append("packets up to \(size) bytes" + (info.facts.bufferSize == nil
                    ? " (buf_size not reported: Zephyr's \(SMPStreamFraming.assumedBufferSize) assumed)" : ""))
            }
        }
        return parts.joined(separator: ", ")
    }

    var json: JSONValue {
        .object([
            JSONField("port", .string(endpoint.path)),
            JSONField("baud", .int(endpoint.baud)),
            JSONField("flow_control", .string(endpoint.hardwareFlowControl ? "rts-cts" : "none")),
            JSONField("framing", .string(framing)),
            JSONField("line_length", lineLength.map { .int($0) } ?? .null),
            JSONField("packet_size", packetSize.map { .int($0) } ?? .null),
            JSONField("device_mtu", deviceMTU.map { .int($0) } ?? .null),
        ])
    }
}
