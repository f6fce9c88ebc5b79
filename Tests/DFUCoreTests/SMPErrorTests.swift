import Testing
@testable import DFUCore

@Suite struct SMPErrorTests {
    @Test func emptyBodyAndRcZeroAreSuccess() throws {
        #expect(try SMPStatus(body: [:]) == .success)
        #expect(try SMPStatus(body: ["rc": 0, "off": 100]) == .success)
        #expect(try SMPStatus(body: ["err": ["group": 1, "rc": 0]]) == .success)
    }

    @Test func v1ReturnCodeBecomesANamedErrorWithItsReason() throws {
        let status = try SMPStatus(body: ["rc": 6, "rsn": "no slot"])
        guard case .failure(let error) = status else {
            Issue.record("expected failure, got \(status)")
            return
        }
        #expect(error == .returnCode(6, reason: "no slot"))
        #expect(error.mcumgrError == .badState)
        #expect(error.description.contains("MGMT_ERR_EBADSTATE"))
        #expect(error.description.contains("no slot"))
    }

    @Test func v2GroupErrorBecomesANamedImageOrOSError() throws {
        let image = try SMPStatus(body: ["err": ["group": 1, "rc": 9]])
        #expect(image == .failure(.image(.noFreeSlot)))
        if case .failure(let error) = image {
            #expect(error.imageError == .noFreeSlot)
            #expect(error.description.contains("NO_FREE_SLOT"))
        }
        let os = try SMPStatus(body: ["err": ["rc": 3, "group": 0]])
        #expect(os == .failure(.os(.queryYieldsNoAnswer)))
        let user = try SMPStatus(body: ["err": ["group": 70, "rc": 2]])
        #expect(user == .failure(.groupError(group: SMPGroup(rawValue: 70), rc: 2, reason: nil)))
    }

    @Test func bothFormsAreAcceptedWhateverTheHeaderVersion() throws {
        // The status reads only the body: a v2 server still sends plain rc for SMP-level errors.
        let v1Packet = try SMPPacket(decoding: SMPPacket.response(
            to: SMPHeader(version: .v1, op: .write, length: 0, group: .image, sequence: 1, command: 1),
            error: .image(.imageDataOverrun)).encoded())
        #expect(try SMPStatus(body: v1Packet.body) == .failure(.image(.imageDataOverrun)))
        #expect(v1Packet.header.version == .v1)
    }

    @Test func errWinsOverRcWhenAServerSendsBoth() throws {
        #expect(try SMPStatus(body: ["rc": 3, "err": ["group": 1, "rc": 31]]) == .failure(.image(.imageDataOverrun)))
    }

    @Test func unknownCodesStayRawAndAreStillReported() throws {
        let status = try SMPStatus(body: ["rc": 300])
        #expect(status == .failure(.returnCode(300, reason: nil)))
        if case .failure(let error) = status {
            #expect(error.mcumgrError == nil)
            #expect(error.description.contains("application-defined"))
        }
        #expect(try SMPStatus(body: ["err": ["group": 1, "rc": 99]]) == .failure(.groupError(group: .image, rc: 99, reason: nil)))
    }

    @Test func malformedErrorFieldsAreAProtocolViolation() {
        #expect(throws: SMPBodyError.wrongType(field: "rc", expected: "integer", found: "text string")) {
            try SMPStatus(body: ["rc": "3"])
        }
        #expect(throws: SMPBodyError.wrongType(field: "err", expected: "map", found: "unsigned integer")) {
            try SMPStatus(body: ["err": 5])
        }
        #expect(throws: SMPBodyError.missingField("err.group")) { try SMPStatus(body: ["err": ["rc": 1]]) }
        #expect(throws: SMPBodyError.invalidValue(field: "err.group", reason: "70000 exceeds 65535")) {
            try SMPStatus(body: ["err": ["group": 70000, "rc": 1]])
        }
    }

    @Test func reasonOfTheWrongTypeDoesNotHideTheError() throws {
        #expect(try SMPStatus(body: ["rc": 2, "rsn": 5]) == .failure(.returnCode(2, reason: nil)))
    }

    @Test func errorBodiesRoundTripThroughTheStatusDecoder() throws {
        let errors: [SMPError] = [.mcumgr(.notSupported), .mcumgr(.busy, reason: "app busy"),
                                  .image(.invalidHash, reason: "bad hash"), .os(.invalidFormat),
                                  .groupError(group: .fileSystem, rc: 4, reason: nil), .returnCode(-5, reason: nil)]
        for error in errors {
            #expect(try SMPStatus(body: error.body) == .failure(error))
        }
    }

    @Test func everyErrorCodeHasANameAndASentence() {
        for e in MCUmgrError.allCases { #expect(e.name.hasPrefix("MGMT_ERR_") && e.description.hasSuffix(".")) }
        for e in ImageMgmtError.allCases { #expect(!e.name.isEmpty && e.description.hasSuffix(".")) }
        for e in OSMgmtError.allCases { #expect(!e.name.isEmpty && e.description.hasSuffix(".")) }
        #expect(MCUmgrError.allCases.map(\.rawValue) == Array(0...13))
        #expect(ImageMgmtError.allCases.map(\.rawValue) == Array(0...34))
        #expect(OSMgmtError.allCases.map(\.rawValue) == Array(0...6))
    }

    @Test func groupErrorsTranslateToLegacyCodesAsZephyrDoes() {
        #expect(ImageMgmtError.noImage.legacyCode == .noEntry)
        #expect(ImageMgmtError.noFreeSlot.legacyCode == .badState)
        #expect(ImageMgmtError.currentVersionIsNewer.legacyCode == .badState)
        #expect(ImageMgmtError.noFreeMemory.legacyCode == .noMemory)
        #expect(ImageMgmtError.invalidOffset.legacyCode == .invalidValue)
        #expect(ImageMgmtError.flashWriteFailed.legacyCode == .unknown)
        #expect(OSMgmtError.queryYieldsNoAnswer.legacyCode == .noEntry)
        #expect(OSMgmtError.invalidFormat.legacyCode == .invalidValue)
    }

    @Test func uploadReplyWithBareRcIsAFailureNotAMissingOffset() throws {
        // smpclient treats {"rc": 9} as success and then fails on the missing offset (reference §8).
        let result = try ImageUploadResponse.decodeResponse(["rc": 9])
        #expect(result == .failure(.mcumgr(.corrupt)))
    }
}
