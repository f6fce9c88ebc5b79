import Testing
import Transport
@testable import DFUCore

/// Control Point bytes both ways, from nordic-secure-dfu.md §2, §3.2 and §6.
@Suite struct NordicWireTests {
    @Test func requestsEncodeLittleEndian() {
        #expect(NordicRequest.create(.command, size: 141).encoded == [0x01, 0x01, 0x8D, 0x00, 0x00, 0x00])
        #expect(NordicRequest.create(.data, size: 4096).encoded == [0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        #expect(NordicRequest.setPRN(0).encoded == [0x02, 0x00, 0x00])
        #expect(NordicRequest.setPRN(0x010C).encoded == [0x02, 0x0C, 0x01])
        #expect(NordicRequest.calculateChecksum.encoded == [0x03])
        #expect(NordicRequest.execute.encoded == [0x04])
        #expect(NordicRequest.select(.command).encoded == [0x06, 0x01])
        #expect(NordicRequest.select(.data).encoded == [0x06, 0x02])
        #expect(NordicRequest.abort.encoded == [0x0C])
    }

    @Test(arguments: [NordicRequest.create(.command, size: 512), .create(.data, size: 0xDEAD_BEEF), .setPRN(12),
                      .calculateChecksum, .execute, .select(.command), .select(.data), .abort])
    func requestsRoundTrip(request: NordicRequest) {
        #expect(NordicRequest(decoding: request.encoded) == request)
    }

    @Test func malformedRequestsDoNotDecode() {
        #expect(NordicRequest(decoding: []) == nil)
        #expect(NordicRequest(decoding: [0x01, 0x02, 0x00]) == nil)
        #expect(NordicRequest(decoding: [0x06, 0x03]) == nil)
        #expect(NordicRequest(decoding: [0x04, 0x00]) == nil)
        #expect(NordicRequest(decoding: [0x09, 0x01]) == nil)
    }

    /// The worked example of §3.2 (a log in issue IOS-DFU-Library #537).
    @Test func selectDataWorkedExample() throws {
        let bytes: [UInt8] = [0x60, 0x06, 0x01, 0x00, 0x10, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]
        let response = try NordicResponse(decoding: bytes)
        #expect(response.opcode == .selectObject)
        #expect(response.outcome == .success(.objectInfo(NordicObjectInfo(maxSize: 4096, offset: 0, crc: 0))))
        #expect(response.encoded == bytes)
    }

    @Test func checksumReplyAndPRNAreOneShape() throws {
        let bytes: [UInt8] = [0x60, 0x03, 0x01, 0x8D, 0x00, 0x00, 0x00, 0x78, 0x56, 0x34, 0x12]
        let response = try NordicResponse(decoding: bytes)
        #expect(response.outcome == .success(.checksum(NordicChecksum(offset: 141, crc: 0x1234_5678))))
        #expect(response.encoded == bytes)
    }

    @Test func emptySuccessesAndRefusals() throws {
        #expect(try NordicResponse(decoding: [0x60, 0x01, 0x01]).outcome == .success(.none))
        #expect(try NordicResponse(decoding: [0x60, 0x04, 0x08]).outcome
                == .failure(NordicRemoteError(result: .operationNotPermitted)))
        let extended = try NordicResponse(decoding: [0x60, 0x04, 0x0B, 0x05])
        #expect(extended.outcome == .failure(NordicRemoteError(result: .extendedError, extended: .firmwareVersionTooLow)))
        #expect("\(NordicRemoteError(result: .extendedError, extended: .firmwareVersionTooLow))" == "FW VERSION TOO LOW (0x05)")
        // A refused Select carries no payload.
        #expect(try NordicResponse(decoding: [0x60, 0x06, 0x02]).outcome
                == .failure(NordicRemoteError(result: .opcodeNotSupported)))
    }

    @Test func unknownCodesAreKeptNotRejected() throws {
        #expect(try NordicResponse(decoding: [0x60, 0x04, 0x42]).outcome
                == .failure(NordicRemoteError(result: .unknown(0x42))))
        #expect(try NordicResponse(decoding: [0x60, 0x04, 0x0B, 0x0F]).outcome
                == .failure(NordicRemoteError(result: .extendedError, extended: .unknown(0x0F))))
        #expect(try NordicResponse(decoding: [0x60, 0x04, 0x0B, 0x0E]).outcome
                == .failure(NordicRemoteError(result: .extendedError, extended: .firmwareAlreadyPresent)))
    }

    @Test func everyLengthIsChecked() {
        #expect(throws: NordicWireError.tooShort(count: 2)) { try NordicResponse(decoding: [0x60, 0x01]) }
        #expect(throws: NordicWireError.notAResponse(firstByte: 0x20)) { try NordicResponse(decoding: [0x20, 0x01, 0x01]) }
        #expect(throws: NordicWireError.unknownOpcode(0x09)) { try NordicResponse(decoding: [0x60, 0x09, 0x01, 0x07]) }
        #expect(throws: NordicWireError.payloadLength(opcode: .selectObject, result: .success, expected: 12, actual: 11)) {
            try NordicResponse(decoding: [0x60, 0x06, 0x01] + [UInt8](repeating: 0, count: 11))
        }
        #expect(throws: NordicWireError.payloadLength(opcode: .calculateChecksum, result: .success, expected: 8, actual: 9)) {
            try NordicResponse(decoding: [0x60, 0x03, 0x01] + [UInt8](repeating: 0, count: 9))
        }
        #expect(throws: NordicWireError.payloadLength(opcode: .execute, result: .success, expected: 0, actual: 1)) {
            try NordicResponse(decoding: [0x60, 0x04, 0x01, 0x00])
        }
        #expect(throws: NordicWireError.payloadLength(opcode: .execute, result: .extendedError, expected: 1, actual: 0)) {
            try NordicResponse(decoding: [0x60, 0x04, 0x0B])
        }
        #expect(throws: NordicWireError.payloadLength(opcode: .createObject, result: .invalidObject, expected: 0, actual: 1)) {
            try NordicResponse(decoding: [0x60, 0x01, 0x05, 0x00])
        }
    }

    @Test func everyCodeRoundTrips() {
        for raw in UInt8.min...UInt8.max {
            #expect(NordicResultCode(rawValue: raw).rawValue == raw)
            #expect(NordicExtendedError(rawValue: raw).rawValue == raw)
        }
        let named = (0x00...0x0E).map { NordicExtendedError(rawValue: UInt8($0)) }
        #expect(!named.contains { if case .unknown = $0 { return true } else { return false } })
        #expect(Set(named.map(\.name)).count == named.count)
    }

    @Test func randomBytesNeverTrap() {
        var rng = SplitMix64(seed: 0x4E0D)
        for _ in 0..<20_000 {
            var bytes = (0..<rng.next(below: 18)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if !bytes.isEmpty && rng.next(below: 2) == 0 { bytes[0] = 0x60 }
            if let response = try? NordicResponse(decoding: bytes) { #expect(response.encoded == bytes) }
        }
    }

    @Test func gattLayout() {
        #expect(NordicDFUService.service == ServiceID(short: 0xFE59))
        #expect(NordicDFUService.controlPoint == CharacteristicID("8EC90001-F315-4F60-9FB8-838830DAEA50"))
        #expect(NordicDFUService.packet == CharacteristicID("8EC90002-F315-4F60-9FB8-838830DAEA50"))
        #expect(NordicDFUService.buttonlessWithoutBonds == CharacteristicID("8EC90003-F315-4F60-9FB8-838830DAEA50"))
        #expect(NordicDFUService.buttonlessWithBonds == CharacteristicID("8EC90004-F315-4F60-9FB8-838830DAEA50"))
        #expect(DFUServiceIDs.nordicSecureDFU == NordicDFUService.service)
    }
}
