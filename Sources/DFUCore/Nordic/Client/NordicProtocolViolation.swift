/// How the bootloader broke the protocol (h11's `RemoteProtocolError`): the device's fault, never a
/// trap or a hang. Each case keeps what arrived.
public enum NordicProtocolViolation: Sendable, Hashable, CustomStringConvertible {
    /// Notification bytes that are not a response of the right shape (short, wrong length…).
    case malformed(NordicWireError)
    /// An answer to another request than the one outstanding.
    case unexpectedResponse(expected: NordicOpcode, received: NordicOpcode)
    /// A notification while nothing was outstanding and no PRN was due.
    case unsolicitedNotification(NordicOpcode)
    /// A Select answer whose maximum object size cannot work (0, huge, or for data not a multiple of 4).
    case unusableMaxSize(NordicObjectType, UInt32)
    /// A Select answer whose offset lies beyond the object (command) or the image (data).
    case offsetBeyondObject(NordicObjectType, offset: UInt32, limit: Int)
    /// A data offset that is not a multiple of 4: the bootloader takes only such writes (§10.3).
    case misalignedOffset(UInt32)
    /// A checksum claiming bytes never sent in this object.
    case offsetBeyondSent(offset: UInt32, sent: Int)
    /// A checksum reporting less than the current object's start, which Create had confirmed.
    case offsetBeforeObject(offset: UInt32, objectStart: Int)

    public var description: String {
        switch self {
        case .malformed(let error):
            return "the bootloader sent \(error)"
        case .unexpectedResponse(let expected, let received):
            return "the bootloader answered \(received) while \(expected) was outstanding"
        case .unsolicitedNotification(let opcode):
            return "the bootloader sent a \(opcode) response while no request was outstanding"
        case .unusableMaxSize(let type, let size):
            return "the bootloader reported a maximum \(type) size of \(size) bytes"
        case .offsetBeyondObject(let type, let offset, let limit):
            return "the bootloader reported \(type) offset \(offset), beyond its \(limit) bytes"
        case .misalignedOffset(let offset):
            return "the bootloader reported data offset \(offset), not a multiple of 4"
        case .offsetBeyondSent(let offset, let sent):
            return "the bootloader reported offset \(offset), beyond the \(sent) bytes sent"
        case .offsetBeforeObject(let offset, let start):
            return "the bootloader reported offset \(offset), before the current object's start at \(start)"
        }
    }
}
