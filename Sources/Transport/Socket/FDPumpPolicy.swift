/// What differs between the sockets an `FDPump` drives: how large a message can be, and what an
/// error means. Data, not code, so each backend states its rules in one line where it opens the pump.
struct FDPumpPolicy: Sendable {
    /// The receive buffer: more than the largest message the socket carries, so none is cut.
    var receiveBufferSize: Int
    /// `errno` values that mean the peer closed its end, so the pump ends with `.hangUp` rather
    /// than `.failed` (a Unix socket whose peer went: `EPIPE`, `ECONNRESET`, `ENOTCONN`).
    var hangUpCodes: Set<Int32> = []
    /// A socket that serves many peers (a bound UDP socket) outlives an error about one: a receive
    /// error that `concernsOneDestination` is skipped, and a send error fails only that message
    /// (`.refused`). Otherwise every such error ends the pump.
    var servesManyPeers = false
    /// A 0-byte read means the peer closed its end (a SOCK_SEQPACKET socket from BlueZ, whose ATT
    /// PDUs are never empty), even before poll reports the hang-up; otherwise it is an empty
    /// datagram (UDP) and only a hang-up ends the pump.
    var emptyReadIsEndOfStream = false

    /// How a receive or send error that does not concern one peer ends the pump.
    func end(after error: SystemCallError) -> FDPumpEnd {
        hangUpCodes.contains(error.code) ? .hangUp : .failed(error)
    }
}
