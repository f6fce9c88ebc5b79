import Testing
@testable import DFUCore

@Suite struct SMPFrameAssemblerTests {
    /// A frame that fits one notification and one that needs many.
    let small: [UInt8]
    let large: [UInt8]

    init() throws {
        small = try OSEchoResponse(text: "hello").response(to: OSEchoRequest(text: "").packet(sequence: 3).header).encoded()
        large = try OSEchoRequest(text: String(repeating: "x", count: 600)).packet(sequence: 9).encoded()
    }

    @Test func wholeFrameInOnePayloadCompletesAtOnce() throws {
        var assembler = SMPFrameAssembler()
        let frame = try #require(try assembler.append(small))
        #expect(frame.encoded() == small)
        #expect(assembler.isIdle)
    }

    @Test func frameSplitAtEveryPossibleBoundaryCompletesOnlyOnItsLastByte() throws {
        for cut in 1..<large.count {
            var assembler = SMPFrameAssembler()
            #expect(try assembler.append(large[..<cut]) == nil)
            #expect(assembler.bufferedByteCount == cut)
            let frame = try #require(try assembler.append(large[cut...]))
            #expect(frame.encoded() == large)
        }
    }

    @Test func byteByByteNotificationsReassemble() throws {
        var assembler = SMPFrameAssembler()
        var result: SMPFrame?
        for (i, byte) in large.enumerated() {
            result = try assembler.append([byte])
            #expect((result == nil) == (i < large.count - 1))
        }
        #expect(result?.encoded() == large)
    }

    @Test func emptyPayloadChangesNothing() throws {
        var assembler = SMPFrameAssembler()
        #expect(try assembler.append([UInt8]()) == nil)
        #expect(try assembler.append(large[..<5]) == nil)
        #expect(try assembler.append([UInt8]()) == nil)
        #expect(assembler.bufferedByteCount == 5)
    }

    @Test func twoPacketsInOnePayloadAreRefusedAndTheNextFrameStartsClean() throws {
        var assembler = SMPFrameAssembler()
        #expect(throws: SMPFrameError.bytesBeyondFrameEnd(expected: small.count, received: small.count * 2)) {
            try assembler.append(small + small)
        }
        #expect(assembler.isIdle)
        #expect(try assembler.append(small)?.encoded() == small)
    }

    @Test func tailOfOnePacketWithHeadOfNextIsRefused() throws {
        var assembler = SMPFrameAssembler()
        #expect(try assembler.append(small[..<10]) == nil)
        #expect(throws: SMPFrameError.bytesBeyondFrameEnd(expected: small.count, received: small.count + 3)) {
            try assembler.append(small[10...] + small[..<3])
        }
        #expect(assembler.isIdle)
    }

    @Test func lengthBeyondTheConfiguredMaximumFailsOnTheHeaderBeforeTheBody() {
        var assembler = SMPFrameAssembler(maximumFrameSize: 256)
        #expect(throws: SMPFrameError.frameTooLarge(declared: large.count, maximum: 256)) {
            try assembler.append(large[..<8])
        }
        #expect(assembler.isIdle)
    }

    @Test func impossibleHeaderIsRefusedAndDropped() {
        var assembler = SMPFrameAssembler()
        #expect(throws: SMPFrameError.undefinedOp(7)) { try assembler.append([0x0F, 0, 0, 0, 0, 0, 0, 0]) }
        #expect(assembler.isIdle)
    }

    @Test func headerArrivingInPiecesIsCheckedOnceComplete() throws {
        var assembler = SMPFrameAssembler()
        #expect(try assembler.append([0x0B, 0x00]) == nil)
        #expect(try assembler.append([0x00, 0x01, 0x00]) == nil)
        #expect(try assembler.append([0x01, 0x07, 0x01]) == nil)
        let frame = try #require(try assembler.append([0xA0]))
        #expect(frame.header.sequence == 7)
        #expect(try SMPPacket(frame: frame).body.isEmpty)
    }

    @Test func resetDropsAPartialFrame() throws {
        var assembler = SMPFrameAssembler()
        _ = try assembler.append(large[..<20])
        assembler.reset()
        #expect(assembler.isIdle)
        #expect(try assembler.append(small)?.encoded() == small)
    }

    @Test func frameWithBrokenCBORStillShowsItsSequence() throws {
        var assembler = SMPFrameAssembler()
        let frame = try #require(try assembler.append([0x0B, 0, 0, 2, 0, 1, 77, 1, 0xA1, 0x63]))
        #expect(frame.header.sequence == 77)
        #expect(throws: SMPFrameError.invalidBody(.lengthExceedsInput(offset: 0, length: 1, remaining: 1))) {
            try SMPPacket(frame: frame)
        }
    }

    @Test func bodyThatIsNotAMapIsRefused() {
        #expect(throws: SMPFrameError.bodyNotAMap(found: "array")) {
            try SMPPacket(decoding: [0x0B, 0, 0, 1, 0, 1, 1, 1, 0x80])
        }
        #expect(throws: SMPFrameError.invalidBody(.truncated(offset: 0))) {
            try SMPPacket(decoding: [0x0B, 0, 0, 0, 0, 1, 1, 1])
        }
    }
}

@Suite struct SMPFragmenterTests {
    @Test func writesAreAtMostTheWriteSizeAndConcatenateToThePacket() throws {
        let packet = try ImageUploadRequest(length: 10_000, offset: 0, sha: Array(repeating: 7, count: 32),
                                            data: Array(repeating: 0x5A, count: 2400)).packet(sequence: 1).encoded()
        for size in [8, 20, 23, 244, 495, 512, packet.count - 1, packet.count, 4096] {
            let writes = try SMPFragmenter.split(packet, maxWriteSize: size)
            #expect(writes.allSatisfy { $0.count <= size && !$0.isEmpty })
            #expect(writes.flatMap { $0 } == packet)
            #expect(writes.count == (packet.count + size - 1) / size)
        }
    }

    @Test func fragmentsReassembleThroughTheAssembler() throws {
        let packet = try OSEchoRequest(text: String(repeating: "é", count: 500)).packet(sequence: 200).encoded()
        for size in stride(from: 8, through: 300, by: 17) {
            var assembler = SMPFrameAssembler()
            var frame: SMPFrame?
            for write in try SMPFragmenter.split(packet, maxWriteSize: size) {
                #expect(frame == nil)
                frame = try assembler.append(write)
            }
            #expect(frame?.encoded() == packet)
        }
    }

    @Test func writeSizeBelowTheHeaderIsRefused() {
        #expect(throws: SMPFrameError.invalidWriteSize(7)) {
            try SMPFragmenter.split([0x08, 0, 0, 1, 0, 0, 0, 0, 0xA0], maxWriteSize: 7)
        }
    }

    @Test func inputThatIsNotExactlyOnePacketIsRefused() throws {
        let packet = try ImageStateReadRequest().packet(sequence: 1).encoded()
        #expect(throws: SMPFrameError.lengthMismatch(declared: 1, actual: 10)) {
            try SMPFragmenter.split(packet + packet, maxWriteSize: 20)
        }
        #expect(throws: SMPFrameError.lengthMismatch(declared: 1, actual: 0)) {
            try SMPFragmenter.split(Array(packet.dropLast()), maxWriteSize: 20)
        }
    }
}
