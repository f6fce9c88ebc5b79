import Testing
@testable import DFUCore

/// The decoder faces bytes from the device (client) and from any client (virtual device): whatever
/// arrives, it returns a value or throws, quickly, and never traps.
@Suite struct CBORRobustnessTests {
    @Test func mutatedValidEncodingsDecodeOrThrowButNeverTrap() throws {
        let vectors = try #require(try CBORVectorFile.load("cbor-vectors.json")["valid"]?.array)
        // Long vectors make each case slow without adding shapes; cap them.
        let seeds = vectors.compactMap { $0["hex"]?.string }.map(fromHex).filter { $0.count <= 2048 }
        var rng = SplitMix64(seed: 0x5EED_CB0A)
        var decoded = 0
        var rejected = 0
        for round in 0..<6000 {
            let input = mutate(seeds[round % seeds.count], rng: &rng)
            do {
                let value = try CBORDecoder().decode(input)
                decoded += 1
                // Whatever decodes must survive our own encoding unchanged.
                #expect(try CBORDecoder().decode(value.encoded()) == value, "round \(round): \(toHex(input))")
            } catch {
                rejected += 1
                #expect(!error.description.isEmpty)
            }
        }
        // Both outcomes must actually be exercised, or the mutations are too weak or too strong.
        #expect(decoded > 300)
        #expect(rejected > 300)
    }

    @Test func randomBytesDecodeOrThrow() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<3000 {
            let count = Int(rng.next() % 40)
            let input = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = try? CBORDecoder().decode(input)
        }
    }

    @Test func depthBombIsRejectedAtTheLimitNotBySmashingTheStack() {
        let clock = ContinuousClock()
        for opener: UInt8 in [0x81, 0x9F, 0xA1, 0xBF] {
            var bomb = [UInt8](repeating: opener, count: 100_000)
            if opener == 0xA1 || opener == 0xBF {
                // A map needs a key before each nested value: {0: {0: ...}}.
                bomb = Array((0..<50_000).flatMap { _ in [opener, 0x00] })
            }
            let elapsed = clock.measure {
                #expect(throws: CBORError.self) {
                    try CBORDecoder(limits: .init(maxSize: 200_000)).decode(bomb)
                }
            }
            #expect(elapsed < .seconds(1))
            do {
                _ = try CBORDecoder(limits: .init(maxSize: 200_000)).decode(bomb)
            } catch {
                #expect(cborErrorKind(error) == "depthLimitExceeded")
            }
        }
    }

    @Test func hugeLengthPrefixesFailBeforeAllocating() {
        let clock = ContinuousClock()
        let lies: [[UInt8]] = [
            [0x5B] + [UInt8](repeating: 0xFF, count: 8),
            [0x7B, 0x7F] + [UInt8](repeating: 0xFF, count: 7) + [0x61],
            [0x9B] + [UInt8](repeating: 0xFF, count: 8) + [0x00],
            [0xBB] + [UInt8](repeating: 0xFF, count: 8) + [0x00, 0x00],
            [0x5A, 0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 100),
            [0xA1, 0x63, 0x6F, 0x66, 0x66, 0x5A, 0x7F, 0xFF, 0xFF, 0xFF],
        ]
        for lie in lies {
            let elapsed = clock.measure {
                do throws(CBORError) {
                    _ = try CBORDecoder().decode(lie)
                    Issue.record("\(toHex(lie)) decoded")
                } catch {
                    #expect(cborErrorKind(error) == "lengthExceedsInput", "\(toHex(lie)): \(error)")
                }
            }
            #expect(elapsed < .milliseconds(100))
        }
    }

    @Test func manySmallItemsHitTheItemLimit() {
        // 60 000 one-byte items in one array: within the size limit, beyond the item limit.
        let input: [UInt8] = [0x99, 0xEA, 0x60] + [UInt8](repeating: 0x00, count: 60_000)
        #expect(throws: CBORError.itemLimitExceeded(offset: 4098, limit: 4096)) { try CBORDecoder().decode(input) }
    }
}

/// One random structural mutation: the kinds of damage a radio link or a hostile peer produces.
func mutate(_ input: [UInt8], rng: inout SplitMix64) -> [UInt8] {
    var bytes = input
    let interesting: [UInt8] = [0x00, 0x17, 0x18, 0x1B, 0x1F, 0x5B, 0x5F, 0x7F, 0x9B, 0x9F, 0xBB, 0xBF, 0xF7, 0xFB, 0xFF]
    let edits = 1 + Int(rng.next() % 3)
    for _ in 0..<edits {
        let position = bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count))
        switch rng.next() % 6 {
        case 0 where !bytes.isEmpty:
            bytes[position] ^= UInt8(1) << UInt8(rng.next() % 8)
        case 1 where !bytes.isEmpty:
            bytes[position] = interesting[Int(rng.next() % UInt64(interesting.count))]
        case 2:
            bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)
        case 3 where !bytes.isEmpty:
            bytes.remove(at: position)
        case 4:
            bytes = Array(bytes.prefix(position))
        default:
            let end = min(bytes.count, position + 1 + Int(rng.next() % 8))
            bytes.insert(contentsOf: bytes[position..<end], at: position)
        }
    }
    return bytes
}
