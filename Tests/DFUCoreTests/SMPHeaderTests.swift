import Testing
@testable import DFUCore

@Suite struct SMPHeaderTests {
    @Test func headerRoundTripsEveryFieldAtItsExtremes() throws {
        for version in [SMPVersion.v1, .v2] {
            for op in SMPOp.allCases {
                for (group, sequence, command, length) in [(UInt16(0), UInt8(0), UInt8(0), UInt16(0)),
                                                            (1, 255, 8, 65535), (0xFFFF, 128, 255, 0x0102)] {
                    let header = SMPHeader(version: version, op: op, flags: 0xA5, length: length,
                                           group: SMPGroup(rawValue: group), sequence: sequence, command: command)
                    let bytes = header.encoded()
                    #expect(bytes.count == SMPHeader.size)
                    #expect(try SMPHeader(decoding: bytes) == header)
                }
            }
        }
    }

    @Test func headerLayoutIsBigEndianWithVersionInBits4And3() {
        let header = SMPHeader(version: .v2, op: .write, flags: 0, length: 0x010B, group: .image,
                               sequence: 1, command: ImageMgmtCommand.upload.rawValue)
        // smpclient's ImageUploadWrite header for the same fields.
        #expect(header.encoded() == [0x0A, 0x00, 0x01, 0x0B, 0x00, 0x01, 0x01, 0x01])
    }

    @Test func shortInputIsRejectedNotRead() {
        #expect(throws: SMPFrameError.truncatedHeader(available: 7)) {
            try SMPHeader(decoding: [0x0A, 0, 0, 0, 0, 1, 1])
        }
    }

    @Test func reservedBitsAndUndefinedOpsAreImpossibleHeaders() {
        #expect(throws: SMPFrameError.reservedHeaderBits(firstByte: 0x2A)) {
            try SMPHeader(decoding: [0x2A, 0, 0, 0, 0, 1, 1, 1])
        }
        for op: UInt8 in 4...7 {
            #expect(throws: SMPFrameError.undefinedOp(op)) { try SMPHeader(decoding: [0x08 | op, 0, 0, 0, 0, 1, 1, 1]) }
        }
    }

    @Test func reservedVersionsDecodeSoAServerCanRefuseThem() throws {
        let header = try SMPHeader(decoding: [0x18 | 0x02, 0, 0, 1, 0, 0, 9, 0])
        #expect(header.version.rawValue == 3)
        #expect(!header.version.isDefined)
        // Zephyr answers in the request's version capped at v2.
        #expect(header.responseHeader(length: 0).version == .v2)
    }

    @Test func responseHeaderEchoesSequenceGroupAndCommandWithTheResponseOp() {
        let request = SMPHeader(version: .v1, op: .read, length: 1, group: .os, sequence: 42,
                                command: OSMgmtCommand.mcumgrParameters.rawValue)
        let response = request.responseHeader(length: 24)
        #expect(response.op == .readResponse)
        #expect(response.version == .v1)
        #expect(response.sequence == 42)
        #expect(response.length == 24)
        #expect(response.answers(request))
        var other = response
        other.sequence = 43
        #expect(!other.answers(request))
        #expect(!request.answers(request))
    }

    @Test func groupAndVersionDescriptionsNameThem() {
        #expect(SMPGroup.image.description == "1 (image)")
        #expect(SMPGroup(rawValue: 70).description == "70 (user)")
        #expect(SMPVersion.v2.description == "v2")
        #expect(SMPVersion(rawValue: 4) == nil)
    }
}
