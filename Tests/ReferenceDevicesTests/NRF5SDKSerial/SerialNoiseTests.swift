import ReferenceDevices
import Testing
import Transport

/// Line noise: whatever arrives, the device neither traps nor loses count.
@Suite struct SerialNoiseTests {
    /// xorshift64*, seeded, so a failure can be replayed.
    struct Noise {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }

        /// Bytes biased towards the SLIP specials and the op codes.
        mutating func bytes(_ count: Int) -> [UInt8] {
            let specials: [UInt8] = [0xC0, 0xDB, 0xDC, 0xDD, 0x01, 0x02, 0x03, 0x04, 0x06, 0x08, 0x09, 0x0C]
            return (0 ..< count).map { _ in
                let value = next()
                return value % 3 == 0 ? specials[Int(value >> 8) % specials.count] : UInt8(truncatingIfNeeded: value >> 16)
            }
        }
    }

    @Test(arguments: [(SDKSerialVariant.uart, UInt64(1)), (.uart, 2), (.usb, 3), (.usb, 4)])
    func randomBytesNeverTrapTheDevice(variant: SDKSerialVariant, seed: UInt64) throws {
        var noise = Noise(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        var bench = SerialBench(try SerialUpdateTests.config(variant) {
            $0.applicationInstalled = false
            $0.timing = SDKSerialTiming(perRequest: .microseconds(200), wordWrite: .microseconds(41), pageErase: .milliseconds(85))
        })
        var sent = 0
        for _ in 0 ..< 300 {
            let count = Int(noise.next() % 40) + 1
            bench.raw(noise.bytes(count))
            sent += count
            bench.advance(.milliseconds(Int64(noise.next() % 20)))
        }
        let counters = bench.counters
        #expect(counters.framesDecoded + counters.framesDropped.values.reduce(0, +) <= sent)
        #expect(counters.responsesSent <= counters.framesDecoded)
    }
}
