import Transport

/// Consumes one link's events at a time for a protocol, and reports each loss of the link it
/// serves (late events of an earlier generation are its to drop). `DeviceConnection` owns the
/// reconnecting and hands each new link to `attach(_:)`.
protocol LinkClient: Sendable {
    /// Yields once per loss of the served link. One consumer (the connection's loss monitor).
    var linkLosses: AsyncStream<DisconnectReason> { get }
    /// Serves `link` from now on (subscribing again); waiting work resumes on it.
    func attach(_ link: any Link) async throws(LinkError)
    /// Stops serving; pending work fails. Safe to call more than once.
    func close() async
}
