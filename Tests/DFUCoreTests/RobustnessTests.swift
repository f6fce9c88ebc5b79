import Testing
import DFUCore

/// The parser and verifier take files from users: every input must end in a report or an `ImageError`,
/// never a trap. Swift Testing runs each test in the same process, so a trap fails the whole run.
@Suite("Parser robustness")
struct RobustnessTests {
    @Test func everyPrefixOfAValidImageParsesOrThrows() throws {
        let bytes = try Samples.image("blinky-ecdsa-p256-protected-tlv-1.1.0.signed.bin")
        let key = try Samples.key("ecdsa-p256")
        var accepted = 0
        for length in 0 ... bytes.count {
            // Any ImageError is fine; the only prefix that may pass is the whole file.
            if let report = try? ImageVerifier.verify(bytes: Array(bytes.prefix(length)), key: key), report.passed {
                accepted += 1
                #expect(length == bytes.count)
            }
        }
        #expect(accepted == 1)
    }

    @Test func everyPrefixOfABuiltImageParsesOrThrows() throws {
        var builder = ImageBuilder()
        builder.protectedTLVs = [(0x50, [1, 0, 0, 0]), (0xA0, [1, 2, 3])]
        builder.extraTLVs = [(0x01, [UInt8](repeating: 0x11, count: 32))]
        let bytes = try builder.build()
        for length in 0 ..< bytes.count {
            #expect(parseError(Array(bytes.prefix(length))) != nil)
        }
        #expect(parseError(bytes) == nil)
    }

    @Test func seededRandomMutationsParseOrThrow() throws {
        let original = try Samples.image("blinky-ecdsa-p256-protected-tlv-1.1.0.signed.bin")
        let key = try Samples.key("ecdsa-p256")
        let image = try MCUbootImage(bytes: original)
        // The fields a liar would rewrite: header sizes, TLV area infos, each TLV's header.
        var fieldOffsets = [8, 10, 12, 20, 22, 24]
        fieldOffsets += [image.unprotectedArea.offset, image.unprotectedArea.offset + 2]
        if let area = image.protectedArea { fieldOffsets += [area.offset, area.offset + 2] }
        fieldOffsets += (image.protectedTLVs + image.unprotectedTLVs).flatMap { [$0.valueOffset - 4, $0.valueOffset - 2] }
        // Most mutations target the header and TLVs, where the parser makes its decisions.
        let interesting = Array(0 ..< 64) + Array(image.hashedRegion.upperBound - 40 ..< original.count)

        var random = SplitMix64(seed: 0xDF0_2024)
        var outcomes: [String: Int] = [:]
        for _ in 0 ..< 3000 {
            var bytes = original
            for _ in 0 ... random.next(below: 3) {
                switch random.next(below: 4) {
                case 0:   // flip one bit
                    let offset = interesting[random.next(below: interesting.count)]
                    bytes.write([UInt8(1) << UInt8(random.next(below: 8))], at: offset, xor: true)
                case 1:   // rewrite a 16-bit length or offset field with an edge value or noise
                    let offset = fieldOffsets[random.next(below: fieldOffsets.count)]
                    let edges: [UInt16] = [0, 1, 3, 4, 0x7FFF, 0x8000, 0xFFFF, UInt16(truncatingIfNeeded: random.next())]
                    bytes.write(le16(edges[random.next(below: edges.count)]), at: offset)
                case 2:   // rewrite ih_img_size around the file size
                    let size = UInt32(clamping: max(0, bytes.count - 0x200 + random.next(below: 64) - 32))
                    bytes.write(le32(random.next(below: 4) == 0 ? UInt32.max : size), at: 12)
                default:  // truncate, mostly near the TLVs
                    let cut = random.next(below: 2) == 0 ? random.next(below: bytes.count)
                                                           : Swift.max(0, bytes.count - random.next(below: 200))
                    bytes = Array(bytes.prefix(cut))
                }
            }
            let outcome: String
            do {
                let report = try ImageVerifier.verify(bytes: bytes, key: key)
                outcome = report.passed ? "passed" : "failed"
            } catch {
                outcome = error.caseName
            }
            outcomes[outcome, default: 0] += 1
        }
        // The mutations reach deep: some images still verify, and several different errors come out.
        #expect(outcomes["failed", default: 0] > 0)
        #expect(outcomes.keys.count >= 4, "outcomes: \(outcomes)")
        #expect(outcomes["cryptoFailure"] == nil)
    }
}

extension Array where Element == UInt8 {
    /// Writes (or XORs) `patch` at `offset`, skipping bytes an earlier truncation removed.
    mutating func write(_ patch: [UInt8], at offset: Int, xor: Bool = false) {
        for (i, byte) in patch.enumerated() where offset + i < count {
            self[offset + i] = xor ? self[offset + i] ^ byte : byte
        }
    }
}

