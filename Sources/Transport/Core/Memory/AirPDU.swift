/// Numbers one ATT request of a memory link, to match its response.
typealias RequestID = UInt64

/// An ATT PDU the central sends, with its L2CAP SDU size (Core spec Vol 3 Part F §3.4).
enum CentralPDU: Sendable {
    case writeCommand(CharacteristicID, [UInt8])
    case writeRequest(RequestID, CharacteristicID, [UInt8])
    case readRequest(RequestID, CharacteristicID)
    /// A Write Request of 0x0001 to the characteristic's CCC descriptor.
    case subscribeRequest(RequestID, CharacteristicID)

    /// L2CAP header + ATT opcode and handle + value.
    var sduSize: Int {
        switch self {
        case .writeCommand(_, let value), .writeRequest(_, _, let value): return RadioTiming.l2capHeader + 3 + value.count
        case .readRequest: return RadioTiming.l2capHeader + 3
        case .subscribeRequest: return RadioTiming.l2capHeader + 3 + 2
        }
    }
}

/// An ATT PDU the peripheral sends.
enum PeripheralPDU: Sendable {
    case notification(CharacteristicID, [UInt8])
    /// A Write/Read Response (value empty for writes) or an Error Response.
    case response(RequestID, Result<[UInt8], ATTError>)

    var sduSize: Int {
        switch self {
        case .notification(_, let value): return RadioTiming.l2capHeader + 3 + value.count
        // A long read is one response here; BlueZ would fetch it with Read Blob in several round trips.
        case .response(_, .success(let value)): return RadioTiming.l2capHeader + 1 + value.count
        case .response(_, .failure): return RadioTiming.l2capHeader + 5
        }
    }
}

/// What the peripheral's host receives, in air order, for the delivery task to hand to the device.
enum PeripheralInbound: Sendable {
    case write(CharacteristicID, [UInt8], request: RequestID?)
    case read(RequestID, CharacteristicID)
    case subscribe(RequestID, CharacteristicID)
    case disconnected(DisconnectReason)
}
