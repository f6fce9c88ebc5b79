import ReferenceDevices
import Transport

/// Drives an `SDKSerialDevice` as a host on a paced line would: each request takes its time on the
/// wire at the device's baud rate, and the host reads the answer before it sends again.
struct SerialBench {
    var device: SDKSerialDevice
    var now = MonotonicInstant.zero
    /// Everything the device did, in order.
    var log: [SerialLineOutput] = []

    init(_ configuration: SDKSerialDeviceConfiguration) {
        device = SDKSerialDevice(configuration: configuration, poweredOnAt: now)
    }

    var config: SDKSerialDeviceConfiguration { device.configuration }
    var counters: SDKSerialDeviceCounters { device.counters }

    /// `count` bytes' time on the line (10 bits a byte).
    func lineTime(_ count: Int) -> Duration { .nanoseconds(Int64(count) * 10 * 1_000_000_000 / Int64(config.baudRate)) }

    /// Sends `bytes` as they are (they finish arriving after their line time); returns the frames the
    /// device sent meanwhile, decoded, and waits until they have arrived.
    @discardableResult
    mutating func raw(_ bytes: [UInt8]) -> [[UInt8]] {
        now = now.advanced(by: lineTime(bytes.count))
        let out = device.receive(bytes, now: now)
        log += out
        let sent = Self.transmitted(in: out)
        now = now.advanced(by: lineTime(sent.count))
        log += device.advance(to: now)
        return HostSLIP.frames(in: sent)
    }

    /// One request as a frame; its answer, if one came. While the bootloader is still busy with
    /// earlier requests the host waits, up to `patience`.
    @discardableResult
    mutating func request(_ bytes: [UInt8], patience: Duration = .seconds(1)) -> [UInt8]? {
        var frames = raw(HostSLIP.encode(bytes))
        let limit = now.advanced(by: patience)
        while frames.isEmpty, device.mode == .bootloader, let due = device.nextDeadline, due > now, due <= limit {
            let sent = Self.transmitted(in: advance(to: due))
            frames = HostSLIP.frames(in: sent)
            if !sent.isEmpty { advance(lineTime(sent.count)) }
        }
        return frames.first
    }

    /// Moves time on.
    @discardableResult
    mutating func advance(_ duration: Duration) -> [SerialLineOutput] { advance(to: now.advanced(by: duration)) }

    @discardableResult
    mutating func advance(to instant: MonotonicInstant) -> [SerialLineOutput] {
        now = max(now, instant)
        let out = device.advance(to: now)
        log += out
        return out
    }

    /// The bytes the device transmitted, and the frames in them.
    static func transmitted(in outputs: [SerialLineOutput]) -> [UInt8] {
        outputs.flatMap { output -> [UInt8] in
            if case .transmit(let bytes) = output { return bytes }
            return []
        }
    }

    static func answers(in outputs: [SerialLineOutput]) -> [[UInt8]] { HostSLIP.frames(in: transmitted(in: outputs)) }

    /// What pc-nrfutil does on open: ping until answered, Set PRN, MTU Get. Returns the MTU.
    mutating func open(prn: UInt16 = 0) -> Int {
        _ = request(SerialRequestBytes.ping(1))
        _ = request(SerialRequestBytes.setPRN(prn))
        guard let answer = request(SerialRequestBytes.mtu), answer.count == 5 else { return 0 }
        return Int(answer[3]) | Int(answer[4]) << 8
    }

    /// The init packet as pc-nrfutil sends it: Select, Create, Writes of `chunk` bytes, CRC,
    /// Execute. Returns the Execute answer.
    mutating func sendInitPacket(_ packet: [UInt8], chunk: Int) -> [UInt8]? {
        _ = request(SerialRequestBytes.select(0x01))
        _ = request(SerialRequestBytes.create(0x01, size: packet.count))
        for start in stride(from: 0, to: packet.count, by: chunk) {
            _ = request(SerialRequestBytes.write(packet[start ..< min(packet.count, start + chunk)]))
        }
        _ = request(SerialRequestBytes.checksum)
        return request(SerialRequestBytes.execute)
    }

    /// The firmware from `offset` (a multiple of 4096) in objects of 4096 bytes: Create, Writes, CRC,
    /// Execute each. Returns the last answer (the final Execute's, or the first failure's).
    mutating func sendFirmware(_ image: [UInt8], from offset: Int = 0, chunk: Int) -> [UInt8]? {
        var last: [UInt8]?
        for start in stride(from: offset, to: image.count, by: 4096) {
            let object = Array(image[start ..< min(image.count, start + 4096)])
            last = request(SerialRequestBytes.create(0x02, size: object.count))
            guard last == [0x60, 0x01, 0x01] else { return last }
            for index in stride(from: 0, to: object.count, by: chunk) {
                _ = request(SerialRequestBytes.write(object[index ..< min(object.count, index + chunk)]))
            }
            _ = request(SerialRequestBytes.checksum)
            last = request(SerialRequestBytes.execute)
            guard last == [0x60, 0x04, 0x01] else { return last }
        }
        return last
    }

    /// The write size pc-nrfutil derives from the MTU: (MTU − 1) / 2 − 1.
    static func chunk(forMTU mtu: Int) -> Int { (mtu - 1) / 2 - 1 }
}
