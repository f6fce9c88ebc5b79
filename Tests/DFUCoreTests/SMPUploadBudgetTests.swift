import Testing
@testable import DFUCore

/// `maximumDataCount(packetSize:)` must be exact: the largest chunk fits, one byte more does not.
@Suite struct SMPUploadBudgetTests {
    func encodedSize(_ request: ImageUploadRequest) throws -> Int {
        try request.packet(sequence: 0).encoded().count
    }

    @Test func largestChunkFitsAndOneMoreByteDoesNot() throws {
        let sha = [UInt8](repeating: 0xAB, count: 32)
        let templates: [ImageUploadRequest] = [
            ImageUploadRequest(image: 0, length: 524_288, offset: 0, sha: sha, data: [], upgrade: true),
            ImageUploadRequest(length: 100, offset: 0, sha: sha, data: []),
            ImageUploadRequest(length: 70_000, offset: 0, data: []),
            ImageUploadRequest(offset: 0, data: []),
            ImageUploadRequest(offset: 23, data: []),
            ImageUploadRequest(offset: 24, data: []),
            ImageUploadRequest(offset: 255, data: []),
            ImageUploadRequest(offset: 256, data: []),
            ImageUploadRequest(offset: 65_535, data: []),
            ImageUploadRequest(offset: 65_536, data: []),
            ImageUploadRequest(offset: 0xFFFF_FFFF, data: []),
            ImageUploadRequest(offset: 0x1_0000_0000, data: []),
        ]
        // Every budget from "barely anything" past the 1-, 2- and 3-byte head thresholds.
        let budgets = Array(1...400) + [495, 498, 512, 1024, 2475, 4096, 65_000, 65_535, 65_543]
        for template in templates {
            for budget in budgets {
                guard let n = template.maximumDataCount(packetSize: budget) else {
                    #expect(try encodedSize(template) > budget, "empty data fits \(budget) but nil returned")
                    continue
                }
                var request = template
                request.data = [UInt8](repeating: 0x5A, count: n)
                #expect(try encodedSize(request) <= budget, "off \(template.offset) budget \(budget): \(n) too many")
                request.data.append(0x5A)
                if let size = try? encodedSize(request) {
                    #expect(size > budget, "off \(template.offset) budget \(budget): \(n) not the largest")
                }
            }
        }
    }

    @Test func firstChunkOverheadMatchesTheKnownFigure() throws {
        // Nordic's note: the first upload packet carries about 69 bytes of overhead with len, sha and off.
        let first = ImageUploadRequest(length: 200_000, offset: 0, sha: [UInt8](repeating: 1, count: 32), data: [])
        let n = try #require(first.maximumDataCount(packetSize: 495))
        #expect(495 - n == 8 + 1 + 4 + 5 + 4 + 1 + 4 + 2 + 32 + 5 + 3)
    }

    @Test func tinyBudgetThatCannotHoldTheFieldsReturnsNil() {
        #expect(ImageUploadRequest(offset: 0, data: []).maximumDataCount(packetSize: 10) == nil)
        #expect(ImageUploadRequest(offset: 0, data: []).maximumDataCount(packetSize: 0) == nil)
        #expect(ImageUploadRequest(offset: 0, data: []).maximumDataCount(packetSize: -5) == nil)
        #expect(ImageUploadRequest(offset: 0, data: []).maximumDataCount(packetSize: .min) == nil)
        #expect(ImageUploadRequest(offset: 0, data: []).maximumDataCount(packetSize: 20) == 0)
        #expect(ImageUploadRequest(offset: 0, data: []).maximumDataCount(packetSize: 19) == nil)
    }

    @Test func existingDataDoesNotChangeTheAnswer() {
        let empty = ImageUploadRequest(offset: 4096, data: [])
        let full = ImageUploadRequest(offset: 4096, data: [UInt8](repeating: 0, count: 1000))
        #expect(empty.maximumDataCount(packetSize: 244) == full.maximumDataCount(packetSize: 244))
    }
}
