import Testing
@testable import DFUCore

@Suite("Protobuf reader")
struct ProtobufReaderTests {
    private func fields(_ bytes: [UInt8]) throws(ProtobufError) -> [ProtobufReader.Field] {
        var reader = ProtobufReader(bytes)
        var out: [ProtobufReader.Field] = []
        while let field = try reader.next() { out.append(field) }
        return out
    }

    @Test func readsEachWireType() throws {
        // 1: varint 300, 2: fixed64, 3: bytes "ab", 4: fixed32
        let bytes: [UInt8] = [0x08, 0xAC, 0x02, 0x11, 1, 0, 0, 0, 0, 0, 0, 0x80, 0x1A, 2, 0x61, 0x62, 0x25, 4, 3, 2, 1]
        let read = try fields(bytes)
        #expect(read.map(\.number) == [1, 2, 3, 4])
        #expect(read[0].value == .varint(300))
        #expect(read[1].value == .fixed64(0x8000_0000_0000_0001))
        #expect(read[2].value == .lengthDelimited(14 ..< 16))
        #expect(read[3].value == .fixed32(0x0102_0304))
    }

    @Test func readsLargestVarintAndRefusesOverflow() throws {
        let max: [UInt8] = [0x08] + Array(repeating: 0xFF, count: 9) + [0x01]
        #expect(try fields(max).first?.value == .varint(UInt64.max))
        #expect(throws: ProtobufError.varintOverflow(offset: 1)) { try fields([0x08] + Array(repeating: 0xFF, count: 9) + [0x02]) }
        #expect(throws: ProtobufError.varintOverflow(offset: 1)) { try fields([0x08] + Array(repeating: 0x80, count: 10) + [0x00]) }
    }

    @Test func refusesTruncatedFields() {
        #expect(throws: ProtobufError.truncated(offset: 1)) { try fields([0x08, 0x80]) }
        #expect(throws: ProtobufError.truncated(offset: 1)) { try fields([0x0A, 0x05, 1, 2]) }
        #expect(throws: ProtobufError.truncated(offset: 1)) { try fields([0x0D, 1, 2, 3]) }
        #expect(throws: ProtobufError.truncated(offset: 0)) { try fields([0x80]) }
    }

    @Test(arguments: [(UInt8(0x0B), 3), (0x0C, 4), (0x0E, 6), (0x0F, 7)])
    func refusesGroupsAndUndefinedWireTypes(key: UInt8, type: Int) {
        #expect(throws: ProtobufError.unsupportedWireType(type, offset: 0)) { try fields([key, 0]) }
    }

    @Test func refusesFieldNumberZero() {
        #expect(throws: ProtobufError.invalidFieldNumber(offset: 0)) { try fields([0x00, 0x01]) }
    }

    /// A length that would run past a sub-message's end is caught against that end, not the buffer's.
    @Test func boundsLengthsByTheEnclosingMessage() {
        var reader = ProtobufReader([0x0A, 0x05, 1, 2, 3, 4, 5], range: 0 ..< 4)
        #expect(throws: ProtobufError.truncated(offset: 1)) { try reader.next() }
    }

    @Test func packedVarints() throws {
        #expect(try ProtobufReader.packedVarints([0x01, 0xAC, 0x02, 0x7F], range: 0 ..< 4) == [1, 300, 127])
        #expect(throws: ProtobufError.self) { try ProtobufReader.packedVarints([0x01, 0xAC], range: 0 ..< 2) }
    }

    /// Random bytes, and every prefix and bit-flip of real init packets: errors or fields, never a trap.
    @Test func randomAndDamagedInputNeverTraps() throws {
        var random = SplitMix64(seed: 0x9E59)
        for _ in 0 ..< 5000 {
            let bytes = (0 ..< random.next(below: 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = try? fields(bytes)
            _ = try? NordicInitPacket(bytes: bytes, file: "random.dat")
        }
        for signed in [true, false] {
            let dat = try NordicSamples.initPacket(signed: signed)
            for length in 0 ... dat.count { _ = try? NordicInitPacket(bytes: Array(dat.prefix(length)), file: "cut.dat") }
            for bit in 0 ..< dat.count * 8 {
                var copy = dat
                copy[bit / 8] ^= 1 << UInt8(bit % 8)
                _ = try? NordicInitPacket(bytes: copy, file: "flipped.dat")
            }
        }
    }
}
