/// What a test can assert on.
public struct SDKSerialDeviceCounters: Sendable, Hashable {
    /// Every start of an image, power-on included.
    public var boots = 0
    /// Every reset: completed or aborted DFU, inactivity timeout, an application re-entering the
    /// bootloader.
    public var resets = 0
    /// Images activated by the bootloader after a completed update.
    public var updatesActivated = 0

    /// Frames the SLIP decoder ended (lone ENDs included) and handed on.
    public var framesDecoded = 0
    /// Of those, frames with no bytes (a lone END): handled with the op code left in the buffer.
    public var emptyFrames = 0
    /// Frames thrown away, by reason.
    public var framesDropped: [SDKSerialFrameDrop: Int] = [:]
    /// Bytes nobody decoded, by reason.
    public var bytesLost: [SDKSerialByteLoss: Int] = [:]
    /// Frames after which no receive buffer was free: the next frame was appended to this one.
    public var receiveBufferShortages = 0
    /// Write payload buffers never given back (a refused data Write, a Write with an invalid object
    /// type, or a Write lost to a full queue).
    public var writeBuffersLeaked = 0

    /// Requests the request handler took, by op code.
    public var requestsHandled: [UInt8: Int] = [:]
    /// Answers sent (receipts included), receipts alone, and answers lost because the transmitter
    /// was still sending the previous one.
    public var responsesSent = 0
    public var receiptsSent = 0
    public var responsesLost = 0

    /// Successful Execute of a command object, and Execute of a data object (the last one whatever
    /// its validation says).
    public var commandObjectsExecuted = 0
    public var dataObjectsExecuted = 0
    /// Write bytes taken into an object.
    public var bytesReceived = 0

    public var pings: Int { requestsHandled[DFUOpCode.ping, default: 0] }
    public var mtuRequests: Int { requestsHandled[DFUOpCode.mtuGet, default: 0] }

    public init() {}
}

/// Why a whole frame was thrown away.
public enum SDKSerialFrameDrop: Sendable, Hashable {
    /// ESC followed by something other than ESC_END or ESC_ESC (slip.c): the frame is cleared up to
    /// the next END.
    case invalidEscape
    /// The scheduler's queue was full.
    case schedulerFull
}

/// Why bytes went undecoded.
public enum SDKSerialByteLoss: Sendable, Hashable {
    /// The SLIP decoder's buffer is full (NO_MEM): it stays full until the device resets.
    case decoderBufferFull
    /// The device was resetting or booting.
    case resetting
    /// The application ignores the port.
    case application
}
