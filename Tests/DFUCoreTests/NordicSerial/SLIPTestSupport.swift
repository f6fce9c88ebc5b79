@testable import DFUCore

/// Helpers for the SLIP tests: payloads that exercise every escape, and a decoder run over a
/// stream cut into chosen chunks.
enum SLIPSamples {
    /// Payloads made of the special bytes, alone and in the orders most likely to confuse a decoder.
    static let adversarial: [[UInt8]] = [
        [0xC0],
        [0xDB],
        [0xDC],
        [0xDD],
        Array(repeating: 0xC0, count: 40),
        Array(repeating: 0xDB, count: 40),
        [0xDB, 0xDC],
        [0xDB, 0xDD],
        [0xC0, 0xDB, 0xC0, 0xDB],
        [0xDB, 0xC0, 0xDD, 0xDC],
        [0xDC, 0xDD, 0xDC, 0xDD],
        Array((0...255).map { UInt8($0) }),
        Array((0...255).reversed().map { UInt8($0) }),
    ]

    /// `count` random payloads of 1...`maxLength` bytes, a third of them drawn only from the
    /// special bytes and 0x00/0xFF.
    static func random(count: Int, maxLength: Int, seed: UInt64) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        let specials: [UInt8] = [0xC0, 0xDB, 0xDC, 0xDD, 0x00, 0xFF]
        return (0..<count).map { index in
            let length = 1 + rng.next(below: maxLength)
            return (0..<length).map { _ in
                index % 3 == 0 ? specials[rng.next(below: specials.count)] : UInt8(truncatingIfNeeded: rng.next())
            }
        }
    }

    /// Feeds `stream` in pieces ending at `cuts` (sorted offsets inside the stream) and returns
    /// every event in order.
    static func decode(_ stream: [UInt8], cuts: [Int], maximumFrameSize: Int = 4096) -> [SLIPDecoder.Event] {
        var decoder = SLIPDecoder(maximumFrameSize: maximumFrameSize)
        var events: [SLIPDecoder.Event] = []
        var start = 0
        for cut in cuts + [stream.count] where cut >= start {
            events += decoder.receive(stream[start..<cut])
            start = cut
        }
        return events
    }

    static func frames(_ payloads: [[UInt8]]) -> [SLIPDecoder.Event] { payloads.map { .frame($0) } }
}
