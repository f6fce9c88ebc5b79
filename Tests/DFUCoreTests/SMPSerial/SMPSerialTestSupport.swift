import Foundation
@testable import DFUCore

/// Helpers for the serial framing tests: sample packets, feeding a decoder in chunks, picking
/// events apart, Zephyr's own line breaks, and the vector file of scripts/gen-smp-serial-vectors.py.

/// A packet of `count` bytes that is not all one value, so a shifted or dropped byte shows.
func samplePacket(_ count: Int, seed: Int = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7 &+ 5) }
}

func framed(_ packet: [UInt8], maximumLineLength: Int = 127) throws -> [UInt8] {
    try SMPSerialEncoder(maximumLineLength: maximumLineLength).encode(packet)
}

/// Feeds `stream` in chunks of the sizes given, cycling through them.
func decode(_ stream: [UInt8], chunks sizes: [Int], with decoder: inout SMPSerialDecoder) -> [SMPSerialEvent] {
    var events: [SMPSerialEvent] = []
    var start = 0
    var index = 0
    while start < stream.count {
        let size = max(1, sizes[index % sizes.count])
        let end = min(start + size, stream.count)
        events += decoder.receive(stream[start..<end])
        start = end
        index += 1
    }
    return events
}

func decode(_ stream: [UInt8], chunks sizes: [Int] = [Int.max], decoder: SMPSerialDecoder = SMPSerialDecoder())
    -> [SMPSerialEvent]
{
    var decoder = decoder
    return decode(stream, chunks: sizes, with: &decoder)
}

extension Array where Element == SMPSerialEvent {
    var packets: [[UInt8]] {
        compactMap { if case .packet(let p) = $0 { return p } else { return nil } }
    }
    /// All text events joined: the bytes outside frames.
    var text: [UInt8] {
        flatMap { (event: SMPSerialEvent) -> [UInt8] in if case .text(let t) = event { return t } else { return [] } }
    }
    var drops: [SMPSerialDropReason] {
        compactMap { if case .dropped(let r) = $0 { return r } else { return nil } }
    }
}

/// The lines Zephyr's own sender writes for `packet` with `MCUMGR_SERIAL_MAX_FRAME` 127, modelled
/// from `serial_util.c`, `mcumgr_serial_tx_pkt`: the first line holds the length with the first
/// packet byte and then up to 30 groups of 3 bytes; the budget stays at 30 groups (90 bytes) for
/// every later line; a line only ends the packet if its data and the 2 CRC bytes fit the budget,
/// otherwise it holds back at least one byte so the CRC travels with data. Zephyr sends nothing
/// for an empty packet.
func zephyrLines(_ packet: [UInt8]) -> [[UInt8]] {
    guard !packet.isEmpty else { return [] }
    let budget = 90
    let total = packet.count + 2
    let crc = CRC16XMODEM.checksum(packet)
    var lines: [[UInt8]] = []
    var offset = 0
    while offset < packet.count {
        var raw: [UInt8] = []
        let marker: SMPSerialMarker = offset == 0 ? .start : .continuation
        if offset == 0 {
            raw = [UInt8(total >> 8), UInt8(total & 0xFF), packet[0]]
            offset = 1
        }
        let remaining = packet.count - offset
        if remaining + 2 <= budget {
            raw += packet[offset...] + [UInt8(crc >> 8), UInt8(crc & 0xFF)]
            offset = packet.count
        } else {
            let take = min(budget, remaining <= budget ? remaining - 1 : remaining) / 3 * 3
            raw += packet[offset..<(offset + take)]
            offset += take
        }
        lines.append(marker.bytes + SMPSerialBase64.encode(raw) + [UInt8(ascii: "\n")])
    }
    return lines
}

/// Tests/Vectors/smp-serial/smp-serial-vectors.json, parsed.
enum SMPSerialVectorFile {
    static func load() throws -> VectorJSON {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/smp-serial/smp-serial-vectors.json")
        return try JSONDecoder().decode(VectorJSON.self, from: Data(contentsOf: url))
    }
}

let newline = UInt8(ascii: "\n")
func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
