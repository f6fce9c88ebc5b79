/// A Control Point notification, `60 <request opcode> <result> [payload]` (nordic-secure-dfu.md §2).
///
/// Parsing checks every length exactly: a success carries 12 bytes after Select, 8 after Calculate
/// Checksum and none after the rest; a refusal carries one extended code byte when the result is
/// `extendedError` and nothing otherwise. Unknown result and extended codes are kept, not rejected.
/// Whether an 8-byte checksum answers a request or is a PRN cannot be told from the bytes; the
/// transfer core decides by what it is waiting for.
public struct NordicResponse: Sendable, Hashable, CustomStringConvertible {
    public enum Outcome: Sendable, Hashable {
        case success(Payload)
        case failure(NordicRemoteError)
    }

    public enum Payload: Sendable, Hashable {
        case none
        case objectInfo(NordicObjectInfo)
        case checksum(NordicChecksum)
    }

    public let opcode: NordicOpcode
    public let outcome: Outcome

    public init(opcode: NordicOpcode, outcome: Outcome) {
        self.opcode = opcode
        self.outcome = outcome
    }

    public init(decoding bytes: [UInt8]) throws(NordicWireError) {
        guard bytes.count >= 3 else { throw .tooShort(count: bytes.count) }
        guard bytes[0] == NordicOpcode.responseCode else { throw .notAResponse(firstByte: bytes[0]) }
        guard let opcode = NordicOpcode(rawValue: bytes[1]) else { throw .unknownOpcode(bytes[1]) }
        let result = NordicResultCode(rawValue: bytes[2])
        let payload = Array(bytes.dropFirst(3))
        func expect(_ count: Int) throws(NordicWireError) {
            guard payload.count == count else {
                throw .payloadLength(opcode: opcode, result: result, expected: count, actual: payload.count)
            }
        }
        switch result {
        case .success:
            switch opcode {
            case .selectObject:
                try expect(NordicObjectInfo.encodedCount)
                guard let info = NordicObjectInfo(payload: payload) else { throw .tooShort(count: bytes.count) }
                outcome = .success(.objectInfo(info))
            case .calculateChecksum:
                try expect(NordicChecksum.encodedCount)
                guard let checksum = NordicChecksum(payload: payload) else { throw .tooShort(count: bytes.count) }
                outcome = .success(.checksum(checksum))
            case .createObject, .setPRN, .execute, .abort:
                try expect(0)
                outcome = .success(.none)
            }
        case .extendedError:
            try expect(1)
            outcome = .failure(NordicRemoteError(result: result, extended: NordicExtendedError(rawValue: payload[0])))
        default:
            try expect(0)
            outcome = .failure(NordicRemoteError(result: result))
        }
        self.opcode = opcode
    }

    /// The notification bytes (for the virtual bootloader and round-trip tests).
    public var encoded: [UInt8] {
        var bytes = [NordicOpcode.responseCode, opcode.rawValue]
        switch outcome {
        case .success(.none): bytes.append(NordicResultCode.success.rawValue)
        case .success(.objectInfo(let info)): bytes += [NordicResultCode.success.rawValue] + info.encoded
        case .success(.checksum(let checksum)): bytes += [NordicResultCode.success.rawValue] + checksum.encoded
        case .failure(let error):
            bytes.append(error.result.rawValue)
            if let extended = error.extended { bytes.append(extended.rawValue) }
        }
        return bytes
    }

    public var description: String {
        switch outcome {
        case .success(.none): return "\(opcode): success"
        case .success(.objectInfo(let info)): return "\(opcode): \(info)"
        case .success(.checksum(let checksum)): return "\(opcode): \(checksum)"
        case .failure(let error): return "\(opcode): \(error)"
        }
    }
}
