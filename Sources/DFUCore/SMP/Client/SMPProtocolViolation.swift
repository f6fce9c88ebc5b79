/// How the device broke the SMP protocol (h11's `RemoteProtocolError`): the peer's fault, never a
/// crash. Each case keeps what is needed to say exactly what arrived.
public enum SMPProtocolViolation: Sendable, Hashable, CustomStringConvertible {
    /// Notification bytes that do not form an SMP packet (bad header, lying length, too large).
    case malformedFrame(SMPFrameError)
    /// A packet from the device with a request op: a device answers, it does not ask.
    case notAResponse(SMPHeader)
    /// A response whose sequence number matches no request we have sent recently.
    case unexpectedSequence(SMPHeader)
    /// A response with the sequence number of a request but another group, command or op.
    case mismatchedResponse(request: SMPHeader, response: SMPHeader)
    /// The body is not valid CBOR, not a map, or lacks a field the response must have.
    case malformedBody(SMPHeader, reason: String)
    /// An upload reply's `off` lies beyond the image length.
    case offsetBeyondLength(offset: UInt64, length: UInt64)
    /// An upload reply's `off` lies beyond every byte we have sent: the device claims data it
    /// never received.
    case offsetBeyondSent(offset: UInt64, sent: UInt64)

    public var description: String {
        switch self {
        case .malformedFrame(let error):
            return "the device sent bytes that are not an SMP packet: \(error)"
        case .notAResponse(let header):
            return "the device sent a request instead of a response (\(header))"
        case .unexpectedSequence(let header):
            return "the device answered a request that was never sent (sequence \(header.sequence); \(header))"
        case .mismatchedResponse(let request, let response):
            return "the device answered request \(request.sequence) (group \(request.group) command \(request.command), \(request.op)) with group \(response.group) command \(response.command), \(response.op)"
        case .malformedBody(let header, let reason):
            return "the device's reply to request \(header.sequence) (group \(header.group) command \(header.command)) is malformed: \(reason)"
        case .offsetBeyondLength(let offset, let length):
            return "the device reported upload offset \(offset), beyond the image length of \(length) bytes"
        case .offsetBeyondSent(let offset, let sent):
            return "the device reported upload offset \(offset), beyond the \(sent) bytes sent so far"
        }
    }
}
