import Testing
@testable import DFUCore

/// Serial response bytes as `response_send` (SDK `nrf_dfu_serial.c`) builds them.
@Suite struct NordicSerialResponseTests {
    @Test func mtuAndPingAnswers() throws {
        #expect(try NordicSerialResponse(decoding: [0x60, 0x07, 0x01, 0x83, 0x00]) == .mtu(131))
        #expect(try NordicSerialResponse(decoding: [0x60, 0x07, 0x01, 0x03, 0x08]) == .mtu(2051))
        #expect(try NordicSerialResponse(decoding: [0x60, 0x09, 0x01, 0x2A]) == .ping(id: 42))
        #expect(try NordicSerialResponse(decoding: [0x60, 0x00, 0x01, 0x01]) == .protocolVersion(1))
    }

    @Test func hardwareVersionIsFiveFieldsInSDKOrder() throws {
        let bytes: [UInt8] = [0x60, 0x0A, 0x01,
                              0x40, 0x28, 0x05, 0x00,  // part 0x52840
                              0x30, 0x44, 0x41, 0x41,  // variant "AAD0" as FICR holds it
                              0x00, 0x00, 0x10, 0x00,  // ROM 1 MiB
                              0x00, 0x00, 0x04, 0x00,  // RAM 256 KiB
                              0x00, 0x10, 0x00, 0x00]  // page 4096
        let version = NordicHardwareVersion(part: 0x52840, variant: 0x4141_4430, romSize: 1 << 20, ramSize: 256 << 10,
                                            romPageSize: 4096)
        #expect(try NordicSerialResponse(decoding: bytes) == .hardwareVersion(version))
        #expect(NordicSerialResponse.hardwareVersion(version).encoded == bytes)
        #expect(bytes.count == NordicSerialLimits.longestResponse)
    }

    @Test func firmwareVersionIsTypeThenThreeFields() throws {
        let bytes: [UInt8] = [0x60, 0x0B, 0x01, 0x02, 0x05, 0x00, 0x00, 0x00, 0x00, 0x80, 0x0F, 0x00, 0x00, 0x60, 0x00, 0x00]
        let version = NordicFirmwareVersion(type: .bootloader, version: 5, address: 0xF8000, length: 0x6000)
        #expect(try NordicSerialResponse(decoding: bytes) == .firmwareVersion(version))
        #expect(NordicSerialResponse.firmwareVersion(version).encoded == bytes)
        let missing: [UInt8] = [0x60, 0x0B, 0x01, 0xFF] + [UInt8](repeating: 0, count: 12)
        #expect(try NordicSerialResponse(decoding: missing)
                == .firmwareVersion(NordicFirmwareVersion(type: .none, version: 0, address: 0, length: 0)))
        #expect(NordicFirmwareVersion.ImageType(rawValue: 0x07) == .unknown(0x07))
        #expect(NordicFirmwareVersion.ImageType(rawValue: 0x07).rawValue == 0x07)
    }

    @Test func refusalsCarryNoPayloadUnlessExtended() throws {
        #expect(try NordicSerialResponse(decoding: [0x60, 0x0B, 0x02])
                == .refused(.firmwareVersion, NordicRemoteError(result: .opcodeNotSupported)))
        #expect(try NordicSerialResponse(decoding: [0x60, 0x09, 0x0B, 0x07])
                == .refused(.ping, NordicRemoteError(result: .extendedError, extended: NordicExtendedError(rawValue: 0x07))))
        #expect(try NordicSerialResponse(decoding: [0x60, 0x07, 0x99])
                == .refused(.getMTU, NordicRemoteError(result: .unknown(0x99))))
    }

    /// Over serial a packet receipt is a Calculate Checksum answer sent after every PRN-th write;
    /// a write that failed when a receipt is due is reported there too.
    @Test func packetReceiptsAreChecksumResponses() throws {
        let receipt: [UInt8] = [0x60, 0x03, 0x01, 0x40, 0x00, 0x00, 0x00, 0x78, 0x56, 0x34, 0x12]
        #expect(try NordicSerialResponse(decoding: receipt)
                == .controlPoint(NordicResponse(opcode: .calculateChecksum,
                                                outcome: .success(.checksum(NordicChecksum(offset: 64, crc: 0x1234_5678))))))
        #expect(try NordicSerialResponse(decoding: [0x60, 0x03, 0x08])
                == .controlPoint(NordicResponse(opcode: .calculateChecksum,
                                                outcome: .failure(NordicRemoteError(result: .operationNotPermitted)))))
    }

    @Test func sharedResponsesParseAsOverBLE() throws {
        let select: [UInt8] = [0x60, 0x06, 0x01, 0x00, 0x02, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(try NordicSerialResponse(decoding: select) == .controlPoint(try NordicResponse(decoding: select)))
        #expect(try NordicSerialResponse(decoding: [0x60, 0x0C, 0x01]) == .controlPoint(try NordicResponse(decoding: [0x60, 0x0C, 0x01])))
    }

    static let all: [NordicSerialResponse] = [
        .protocolVersion(1), .mtu(131), .mtu(0xC0DB), .ping(id: 0xC0), .ping(id: 0),
        .hardwareVersion(NordicHardwareVersion(part: 0x52833, variant: 0xC0DB_C0DB, romSize: 512 << 10, ramSize: 128 << 10,
                                               romPageSize: 4096)),
        .firmwareVersion(NordicFirmwareVersion(type: .application, version: 3, address: 0x27000, length: 0xC0C0)),
        .refused(.ping, NordicRemoteError(result: .opcodeNotSupported)),
        .refused(.firmwareVersion, NordicRemoteError(result: .extendedError, extended: .firmwareVersionTooLow)),
        .controlPoint(NordicResponse(opcode: .selectObject, outcome: .success(.objectInfo(NordicObjectInfo(maxSize: 4096, offset: 0xC0, crc: 0xDBDB_C0C0))))),
        .controlPoint(NordicResponse(opcode: .execute, outcome: .success(.none))),
    ]

    @Test(arguments: all)
    func responsesRoundTripThroughBytesAndFrames(response: NordicSerialResponse) throws {
        #expect(try NordicSerialResponse(decoding: response.encoded) == response)
        #expect(response.encoded.count <= NordicSerialLimits.maximumResponseFrameSize)
        var decoder = SLIPDecoder(maximumFrameSize: NordicSerialLimits.maximumResponseFrameSize)
        #expect(decoder.receive(response.framed) == [.frame(response.encoded)])
    }

    @Test func malformedResponsesAreRefusedWithWhatArrived() {
        #expect(throws: NordicSerialWireError.tooShort(count: 2)) { try NordicSerialResponse(decoding: [0x60, 0x07]) }
        #expect(throws: NordicSerialWireError.notAResponse(firstByte: 0x07)) { try NordicSerialResponse(decoding: [0x07, 0x01, 0x01]) }
        #expect(throws: NordicSerialWireError.unknownOpcode(0x05)) { try NordicSerialResponse(decoding: [0x60, 0x05, 0x01]) }
        #expect(throws: NordicSerialWireError.unknownOpcode(0x0D)) { try NordicSerialResponse(decoding: [0x60, 0x0D, 0x01]) }
        #expect(throws: NordicSerialWireError.writeObjectEchoed) { try NordicSerialResponse(decoding: [0x60, 0x08, 0x01]) }
        #expect(throws: NordicSerialWireError.writeObjectEchoed) { try NordicSerialResponse(decoding: [0x60, 0x08, 0x08]) }
        #expect(throws: NordicSerialWireError.payloadLength(opcode: .getMTU, result: .success, expected: 2, actual: 1)) {
            try NordicSerialResponse(decoding: [0x60, 0x07, 0x01, 0x83])
        }
        #expect(throws: NordicSerialWireError.payloadLength(opcode: .ping, result: .success, expected: 1, actual: 0)) {
            try NordicSerialResponse(decoding: [0x60, 0x09, 0x01])
        }
        #expect(throws: NordicSerialWireError.payloadLength(opcode: .hardwareVersion, result: .success, expected: 20, actual: 19)) {
            try NordicSerialResponse(decoding: [0x60, 0x0A, 0x01] + [UInt8](repeating: 0, count: 19))
        }
        #expect(throws: NordicSerialWireError.payloadLength(opcode: .firmwareVersion, result: .success, expected: 13, actual: 14)) {
            try NordicSerialResponse(decoding: [0x60, 0x0B, 0x01] + [UInt8](repeating: 0, count: 14))
        }
        #expect(throws: NordicSerialWireError.payloadLength(opcode: .ping, result: .opcodeNotSupported, expected: 0, actual: 1)) {
            try NordicSerialResponse(decoding: [0x60, 0x09, 0x02, 0x00])
        }
        #expect(throws: NordicSerialWireError.payloadLength(opcode: .getMTU, result: .extendedError, expected: 1, actual: 0)) {
            try NordicSerialResponse(decoding: [0x60, 0x07, 0x0B])
        }
        #expect(throws: NordicSerialWireError.controlPoint(.payloadLength(opcode: .selectObject, result: .success, expected: 12, actual: 1))) {
            try NordicSerialResponse(decoding: [0x60, 0x06, 0x01, 0x00])
        }
    }

    /// Every byte string up to 4 bytes, and random longer ones, decode or throw: never trap.
    @Test func arbitraryFramesNeverTrap() {
        var rng = SplitMix64(seed: 0x60)
        for _ in 0..<20_000 {
            let count = rng.next(below: 26)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if count > 1, rng.next(below: 2) == 0 { bytes[0] = 0x60; bytes[1] = UInt8(rng.next(below: 0x0E)) }
            if let response = try? NordicSerialResponse(decoding: bytes) {
                #expect(response.encoded == bytes)
            }
        }
    }

    @Test func descriptions() {
        #expect("\(NordicSerialResponse.mtu(131))" == "Get MTU: 131")
        #expect("\(NordicSerialResponse.refused(.ping, NordicRemoteError(result: .opcodeNotSupported)))"
                == "Ping: opcode not supported (0x02)")
        #expect("\(NordicSerialWireError.writeObjectEchoed)" == "a serial response echoing Write Object, which the bootloader never sends")
    }
}
