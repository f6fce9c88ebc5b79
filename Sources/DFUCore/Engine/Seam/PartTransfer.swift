/// How the transfer of one part ended (`UpdateSession.transfer`).
enum PartTransfer: Sendable, Equatable {
    /// Sent in full; its end activated it.
    case sent
    /// The device declined the part as one it already has (not newer); nothing was activated and
    /// the next part follows on the same link. The text says so, as a warning.
    case skipped(String)
}
