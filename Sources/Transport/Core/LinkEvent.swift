/// Something the device side did, stamped with the connection it happened on.
public struct LinkEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A notification value, in the order the device sent it.
        case notification(CharacteristicID, [UInt8])
        /// The connection ended. Always the last event of a link's stream.
        case disconnected(DisconnectReason)
    }

    /// The connection this event belongs to; compare with the current link's before acting on it.
    public let generation: LinkGeneration
    public let kind: Kind

    public init(generation: LinkGeneration, kind: Kind) {
        self.generation = generation
        self.kind = kind
    }
}
