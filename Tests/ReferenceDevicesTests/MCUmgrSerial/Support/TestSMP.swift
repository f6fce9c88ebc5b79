import Foundation

/// SMP as a client builds and reads it, per smp_transport.rst and the SMP header layout, written
/// for the tests (not the model's code).
struct TestSMP: Equatable {
    var op: UInt8
    var version: UInt8 = 1
    var group: UInt16
    var command: UInt8
    var sequence: UInt8 = 0
    var payload: [UInt8]

    static func request(write: Bool, group: UInt16, command: UInt8, sequence: UInt8 = 0, version: UInt8 = 1,
                        _ body: TestCBOR = .map([])) -> TestSMP {
        TestSMP(op: write ? 2 : 0, version: version, group: group, command: command, sequence: sequence, payload: body.encoded)
    }

    var bytes: [UInt8] {
        let length = payload.count
        return [op | version << 3, 0, UInt8(length >> 8), UInt8(length & 0xFF),
                UInt8(group >> 8), UInt8(group & 0xFF), sequence, command] + payload
    }

    init(op: UInt8, version: UInt8 = 1, group: UInt16, command: UInt8, sequence: UInt8 = 0, payload: [UInt8]) {
        self.op = op
        self.version = version
        self.group = group
        self.command = command
        self.sequence = sequence
        self.payload = payload
    }

    init?(parsing bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        op = bytes[0] & 7
        version = (bytes[0] >> 3) & 3
        let length = Int(bytes[2]) << 8 | Int(bytes[3])
        group = UInt16(bytes[4]) << 8 | UInt16(bytes[5])
        sequence = bytes[6]
        command = bytes[7]
        guard bytes.count == 8 + length else { return nil }
        payload = Array(bytes[8...])
    }

    var body: TestCBOR? { TestCBOR.decode(payload) }
}

/// SMP over console as the spec describes it, client side.
enum TestConsole {
    /// CRC-16/XMODEM, bitwise.
    static func crc(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }

    /// length ‖ packet ‖ CRC, base64 (Foundation), cut into `perLine` characters per line.
    static func frame(_ packet: [UInt8], perLine: Int = 124) -> [UInt8] {
        let crc = crc(packet)
        let length = packet.count + 2
        let raw = [UInt8(length >> 8), UInt8(length & 0xFF)] + packet + [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        let encoded = Array(Data(raw).base64EncodedString().utf8)
        var out: [UInt8] = []
        var offset = 0
        while offset < encoded.count {
            out += offset == 0 ? [0x06, 0x09] : [0x04, 0x14]
            let count = min(perLine, encoded.count - offset)
            out += encoded[offset..<offset + count] + [0x0A]
            offset += count
        }
        return out
    }

    /// Splits transmitted bytes into lines; frames are decoded (each line's base64 on its own) and
    /// reassembled; other lines are returned as text.
    struct Reader {
        private var pending: [UInt8] = []
        private var packet: [UInt8]?
        private var expected = 0
        var packets: [[UInt8]] = []
        var text: [String] = []
        var lineLengths: [Int] = []
        var badFrames = 0

        mutating func feed(_ bytes: [UInt8]) {
            pending += bytes
            while let end = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[...end])
                pending.removeSubrange(...end)
                consume(line)
            }
        }

        private mutating func consume(_ line: [UInt8]) {
            guard line.count >= 3, (line[0] == 0x06 && line[1] == 0x09) || (line[0] == 0x04 && line[1] == 0x14) else {
                text.append(String(decoding: line, as: UTF8.self))
                return
            }
            lineLengths.append(line.count)
            let base64 = String(decoding: line[2..<line.count - 1], as: UTF8.self)
            guard let data = Data(base64Encoded: base64) else {
                badFrames += 1
                return
            }
            if line[0] == 0x06 {
                guard data.count >= 2 else { badFrames += 1; return }
                expected = Int(data[0]) << 8 | Int(data[1])
                packet = Array(data.dropFirst(2))
            } else {
                packet? += Array(data)
            }
            guard let current = packet, current.count >= expected else { return }
            packet = nil
            guard current.count == expected, crc(current) == 0 else {
                badFrames += 1
                return
            }
            packets.append(Array(current.dropLast(2)))
        }
    }
}
