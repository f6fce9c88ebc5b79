import Testing
@testable import DFUCore

@Suite struct SMPSerialEncoderTests {
    @Test func oneLineCarriesLengthPacketAndCRC() throws {
        let packet = samplePacket(20)
        let lines = try SMPSerialEncoder().lines(for: packet)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(Array(line.prefix(2)) == [0x06, 0x09])
        #expect(line.last == newline)
        let decoded = try #require(SMPSerialBase64.decode(line[2..<(line.count - 1)]))
        // Total length counts the packet and the CRC, not itself.
        #expect(decoded.prefix(2) == [0x00, 22])
        #expect(Array(decoded[2..<22]) == packet)
        let crc = CRC16XMODEM.checksum(packet)
        #expect(decoded.suffix(2) == [UInt8(crc >> 8), UInt8(crc & 0xFF)])
    }

    @Test func linesFillTo127BytesAndContinueWithTheContinuationMarker() throws {
        let packet = samplePacket(1000)
        let lines = try SMPSerialEncoder().lines(for: packet)
        // 1004 framed bytes make 1340 characters: ten lines of 124 and one of 100.
        #expect(lines.map(\.count) == Array(repeating: 127, count: 10) + [103])
        for (index, line) in lines.enumerated() {
            #expect(Array(line.prefix(2)) == (index == 0 ? [0x06, 0x09] : [0x04, 0x14]))
            #expect(line.last == newline)
            #expect((line.count - 3) % 4 == 0)
            #expect(!line.dropLast().contains(newline))
        }
    }

    @Test func ninetyThreeFramedBytesFillExactlyOneLine() throws {
        // 89 + 4 = 93 bytes = 31 groups = 124 characters.
        #expect(try SMPSerialEncoder().lines(for: samplePacket(89)).map(\.count) == [127])
        // One byte more spills a padded group onto a second line.
        let lines = try SMPSerialEncoder().lines(for: samplePacket(90))
        #expect(lines.map(\.count) == [127, 7])
        #expect(lines.last.map { Array($0.suffix(3)) } == ascii("==\n"))
    }

    @Test func emptyPacketIsOneLineOfLengthAndCRC() throws {
        #expect(try SMPSerialEncoder().encode([]) == [0x06, 0x09] + ascii("AAIAAA==\n"))
    }

    @Test func everyLineRespectsTheLimitForEveryLimit() throws {
        let packet = samplePacket(700)
        for limit in 7...200 {
            let encoder = try SMPSerialEncoder(maximumLineLength: limit)
            let lines = try encoder.lines(for: packet)
            #expect(lines.allSatisfy { $0.count <= limit }, "limit \(limit)")
            // All lines but the last are full: as many whole groups as fit.
            #expect(lines.dropLast().allSatisfy { $0.count == encoder.charactersPerLine + 3 })
            #expect(encoder.charactersPerLine == (limit - 3) / 4 * 4)
        }
    }

    @Test func smallestLineCarriesOneGroup() throws {
        let lines = try SMPSerialEncoder(maximumLineLength: 7).lines(for: samplePacket(5))
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.count == 7 })
    }

    @Test func refusesALineTooShortForAGroup() {
        #expect(throws: SMPSerialEncodingError.lineLengthTooSmall(6, minimum: 7)) {
            try SMPSerialEncoder(maximumLineLength: 6)
        }
    }

    @Test func refusesAPacketTheLengthFieldCannotDescribe() throws {
        #expect(throws: SMPSerialEncodingError.packetTooLarge(size: 65534, maximum: 65533)) {
            try SMPSerialEncoder().encode([UInt8](repeating: 0, count: 65534))
        }
        let largest = try SMPSerialEncoder().encode([UInt8](repeating: 0xA5, count: 65533))
        #expect(decode(largest).packets == [[UInt8](repeating: 0xA5, count: 65533)])
    }

    /// Zephyr's sender breaks lines elsewhere (120-character later lines, the CRC kept with data),
    /// but the text it cuts is the same base64 of the same bytes.
    @Test func zephyrSenderWritesTheSameTextCutDifferently() throws {
        for count in 1...1200 {
            let packet = samplePacket(count, seed: count)
            let ours = try SMPSerialEncoder().lines(for: packet)
            let zephyr = zephyrLines(packet)
            #expect(ours.flatMap { $0.dropFirst(2).dropLast() } == zephyr.flatMap { $0.dropFirst(2).dropLast() })
            #expect(zephyr.first?.count ?? 0 <= 127)
            #expect(zephyr.dropFirst().allSatisfy { $0.count <= 123 })
        }
    }
}
