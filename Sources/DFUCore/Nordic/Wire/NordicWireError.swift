import Transport

/// Why Control Point notification bytes are not a response this client can read. Each case keeps
/// what arrived, so the error says exactly what the device sent.
public enum NordicWireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than the 3 bytes `60 <op> <result>`.
    case tooShort(count: Int)
    /// The first byte is not the response code 0x60.
    case notAResponse(firstByte: UInt8)
    /// The echoed opcode is not one a BLE client sends (so its payload cannot be checked).
    case unknownOpcode(UInt8)
    /// The payload after the result does not have the length this opcode and result require.
    case payloadLength(opcode: NordicOpcode, result: NordicResultCode, expected: Int, actual: Int)

    public var description: String {
        switch self {
        case .tooShort(let count):
            return "a \(count)-byte notification (a response has at least 3)"
        case .notAResponse(let first):
            return "a notification starting with 0x\(hexDigits(first, width: 2)), not the response code 0x60"
        case .unknownOpcode(let opcode):
            return "a response to opcode 0x\(hexDigits(opcode, width: 2)), which this client never sends"
        case .payloadLength(let opcode, let result, let expected, let actual):
            return "a \(opcode) response (\(result)) with \(actual) payload bytes where \(expected) belong"
        }
    }
}
