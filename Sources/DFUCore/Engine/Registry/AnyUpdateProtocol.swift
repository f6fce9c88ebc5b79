import Transport

/// An `UpdateProtocol` with its types erased, for the registry: what the engine and `dfu info` need
/// of it without naming it.
struct AnyUpdateProtocol: Sendable {
    /// The GATT items the protocol needs on a device.
    let layout: any GATTLayout
    /// Where a device the user named may answer (`UpdateProtocol.peers(for:options:)`).
    let peers: @Sendable (PeerIdentity, UpdateOptions) -> [PeerIdentity]
    /// Runs the update's stages (`UpdateProcedure`) with this protocol.
    let run: @Sendable (UpdateEngine, @escaping @Sendable (UpdateEvent) -> Void) async -> Result<ImageVersion, DFUError>

    init<Protocol: UpdateProtocol>(_ updateProtocol: Protocol) {
        layout = updateProtocol.layout
        peers = { peer, options in updateProtocol.peers(for: peer, options: options) }
        run = { engine, emit in
            var procedure = UpdateProcedure(engine: engine, protocol: updateProtocol, emit: emit)
            return await procedure.run()
        }
    }
}
