import Testing
@testable import DFUCore

@Suite struct CBORCodecTests {
    let decoder = CBORDecoder()

    @Test func integersRoundTripAtEveryHeadWidthBoundary() throws {
        let values: [UInt64] = [0, 23, 24, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, .max]
        let heads = [1, 1, 2, 2, 3, 3, 5, 5, 9, 9]
        for (n, head) in zip(values, heads) {
            for value in [CBORValue.unsigned(n), .negative(n)] {
                let bytes = value.encoded()
                #expect(bytes.count == head, "\(value) should encode in \(head) bytes")
                #expect(try decoder.decode(bytes) == value)
            }
        }
    }

    @Test func signedIntegersMapToTheRightMajorType() {
        #expect(CBORValue.int(0) == .unsigned(0))
        #expect(CBORValue.int(-1) == .negative(0))
        #expect(CBORValue.int(.min) == .negative(UInt64(Int64.max)))
        #expect(CBORValue.int(.min).int == .min)
        #expect(CBORValue.unsigned(.max).int == nil)
        #expect(CBORValue.negative(.max).int == nil)
        #expect(CBORValue.negative(4).uint == nil)
        #expect(CBORValue.negative(.max).description == "-18446744073709551616")
    }

    @Test func stringsArraysAndMapsRoundTrip() throws {
        let value: CBORValue = [
            "bytes": .bytes(Array(0...255)),
            "text": "héllo wörld ✓ 𐅑",
            "array": [1, -2, true, false, nil, [[], [:]]],
            "map": [1: "int key", -5: .bytes([]), "nested": ["deeper": ["x": 1]]],
        ]
        #expect(try decoder.decode(value.encoded()) == value)
    }

    @Test func indefiniteEncodingRoundTripsAndMatchesZephyrShape() throws {
        let value: CBORValue = ["images": [["slot": 0, "active": true]], "splitStatus": 0]
        let bytes = CBOREncoder(containerLength: .indefinite).encode(value)
        #expect(bytes.first == 0xBF)
        #expect(bytes.last == 0xFF)
        #expect(bytes.contains(0x9F))
        #expect(try decoder.decode(bytes) == value)
    }

    @Test func canonicalKeyOrderSortsShorterKeysFirstThenBytewise() {
        let map: CBORMap = ["upgrade": true, "data": .bytes([]), "off": 0, "len": 5, 10: 1, "aa": 1]
        let sorted = CBOREncoder(keyOrder: .canonical).encode(map)
        let expected: CBORMap = [10: 1, "aa": 1, "len": 5, "off": 0, "data": .bytes([]), "upgrade": true]
        #expect(sorted == expected.encoded())
    }

    @Test func mapAccessorsReadSMPFieldsDirectly() throws {
        let body = try decoder.decode(fromHex("a2636f6666190100656d61746368f5"))
        #expect(body["off"]?.uint == 256)
        #expect(body["match"]?.bool == true)
        #expect(body["missing"] == nil)
        #expect(CBORValue.unsigned(1)["off"] == nil)
    }

    @Test func mapSubscriptSetReplacesInPlaceAppendsAndRemoves() {
        var map: CBORMap = ["a": 1, "b": 2]
        map["a"] = 10
        map["c"] = 3
        map["b"] = nil
        #expect(map == ["a": 10, "c": 3])
        map["zzz"] = nil
        #expect(map.count == 2)
    }

    @Test func mapEqualityKeepsWireOrder() {
        let ab: CBORMap = ["a": 1, "b": 2]
        let ba: CBORMap = ["b": 2, "a": 1]
        #expect(ab != ba)
        #expect(ab["a"] == ba["a"])
    }

    @Test func indefiniteStringsJoinTheirChunks() throws {
        #expect(try decoder.decode(fromHex("5f42010243030405ff")) == .bytes([1, 2, 3, 4, 5]))
        #expect(try decoder.decode(fromHex("7f6368c3a9636c6c6fff")) == .text("héllo"))
        #expect(try decoder.decode(fromHex("7fff")) == .text(""))
    }

    @Test func nonShortestHeadsDecodeAndReencodeShortest() throws {
        let value = try decoder.decode(fromHex("1b0000000000000005"))
        #expect(value == .unsigned(5))
        #expect(value.encoded() == [0x05])
    }

    @Test func trailingBytesAreRejectedUnlessAllowed() throws {
        #expect(throws: CBORError.trailingBytes(offset: 1, count: 2)) { try decoder.decode([0x01, 0x02, 0x03]) }
        #expect(try decoder.decode([0x01, 0x02], allowTrailingBytes: true) == .unsigned(1))
        let prefix = try decoder.decodePrefix([0x82, 0x01, 0x02, 0xFF])
        #expect(prefix.value == [1, 2])
        #expect(prefix.consumed == 3)
    }

    @Test func errorsNameTheOffendingByteOffset() {
        #expect(throws: CBORError.invalidUTF8(offset: 3)) { try decoder.decode(fromHex("a1616162c328")) }
        #expect(throws: CBORError.unsupported(.float, offset: 3)) { try decoder.decode(fromHex("a16161f93c00")) }
        #expect(throws: CBORError.duplicateMapKey(offset: 4, key: "\"a\"")) {
            try decoder.decode(fromHex("a261610161610 2".replacingOccurrences(of: " ", with: "")))
        }
    }

    @Test func limitsAreConfigurable() {
        let tight = CBORDecoder(limits: .init(maxDepth: 2, maxItems: 3, maxSize: 8))
        #expect(throws: CBORError.depthLimitExceeded(offset: 2, limit: 2)) { try tight.decode([0x81, 0x81, 0x81, 0x00]) }
        #expect(throws: CBORError.itemLimitExceeded(offset: 3, limit: 3)) { try tight.decode([0x83, 0x01, 0x02, 0x03]) }
        #expect(throws: CBORError.inputTooLarge(size: 9, limit: 8)) { try tight.decode([UInt8](repeating: 0, count: 9)) }
        #expect((try? tight.decode([0x81, 0x81, 0x00])) == [[0]] as CBORValue)
    }

    @Test func errorDescriptionsSayWhatAndWhere() {
        let error = CBORError.lengthExceedsInput(offset: 4, length: 1000, remaining: 3)
        #expect(error.description.contains("byte 4"))
        #expect(error.description.contains("1000"))
    }

    @Test func diagnosticNotationIsReadable() {
        let value: CBORValue = ["off": 0, "data": .bytes([1, 0xAB]), "q": "a\"b"]
        #expect(value.description == #"{"off": 0, "data": h'01ab', "q": "a\"b"}"#)
    }
}
