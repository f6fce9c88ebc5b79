/// What differs between the descriptors an `FDPump` drives: how large a message can be, and what
/// an error means. Data, not code, so each backend states its rules in one line where it opens the pump.
package struct FDPumpPolicy: Sendable {
    /// The receive buffer: more than the largest message the socket carries, so none is cut (on a
    /// stream or tty, the most one read returns).
    package var receiveBufferSize: Int
    /// `errno` values that mean the peer closed its end, so the pump ends with `.hangUp` rather
    /// than `.failed` (a Unix socket whose peer went: `EPIPE`, `ECONNRESET`, `ENOTCONN`).
    package var hangUpCodes: Set<Int32>
    /// A socket that serves many peers (a bound UDP socket) outlives an error about one: a receive
    /// error that `concernsOneDestination` is skipped, and a send error fails only that message
    /// (`.refused`); it is read with `recvfrom`, so each message names its sender. Otherwise every
    /// such error ends the pump.
    package var servesManyPeers: Bool
    /// A 0-byte read means the peer closed its end (a SOCK_SEQPACKET socket from BlueZ, whose ATT
    /// PDUs are never empty; a pipe), even before poll reports the hang-up; otherwise it is an
    /// empty datagram (UDP) and only a hang-up ends the pump.
    package var emptyReadIsEndOfStream: Bool

    package init(receiveBufferSize: Int, hangUpCodes: Set<Int32> = [], servesManyPeers: Bool = false,
                 emptyReadIsEndOfStream: Bool = false) {
        self.receiveBufferSize = receiveBufferSize
        self.hangUpCodes = hangUpCodes
        self.servesManyPeers = servesManyPeers
        self.emptyReadIsEndOfStream = emptyReadIsEndOfStream
    }

    /// How a receive or send error that does not concern one peer ends the pump.
    func end(after error: SystemCallError) -> FDPumpEnd {
        hangUpCodes.contains(error.code) ? .hangUp : .failed(error)
    }
}
