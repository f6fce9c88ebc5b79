/// What an `FDPump` hands its owner, on the pump's thread, in the order it happened.
package enum FDPumpEvent: Sendable {
    /// What one read returned, in arrival order: one whole message on a datagram or seqpacket
    /// socket, the next bytes of a stream or tty. `from` is the sender on a socket that serves many
    /// peers (`FDPumpPolicy.servesManyPeers`, read with `recvfrom`) when the kernel named an
    /// IPv4/IPv6 one; nil otherwise.
    case received([UInt8], from: SocketAddress?)
    /// The last event, sent exactly once: nothing follows it.
    case ended(FDPumpEnd)
}

/// Why a pump ended.
package enum FDPumpEnd: Sendable, Hashable {
    /// `close()` was called.
    case closed
    /// The peer closed its end: EOF or `POLLHUP` once what it sent was read, or an error the
    /// policy counts as a hang-up (`EPIPE`, `ECONNRESET` on a Unix socket).
    case hangUp
    /// A receive, send or `poll` failed for good; for a connected UDP socket, `ECONNREFUSED` means an
    /// ICMP port-unreachable came back: nothing listens at the peer's port.
    case failed(SystemCallError)
}

/// Why one `FDPump.send` did not leave.
package enum FDPumpSendFailure: Error, Sendable, Hashable {
    /// The pump ended before the message left (or the send ended it).
    case ended(FDPumpEnd)
    /// The caller's task was cancelled while the message waited; it was not sent.
    case cancelled
    /// This one message could not be sent; the pump stays open. Only when the policy says the
    /// socket serves many peers.
    case refused(SystemCallError)
}
