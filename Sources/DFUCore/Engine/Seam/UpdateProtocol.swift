import Transport
/// One update protocol, as the engine's stages use it (ARCHITECTURE, "Protocols side by side"). The
/// stages are written once in `UpdateProcedure`; what differs per protocol is supplied here: the
/// update file and its verification, the GATT layout, the client that consumes a link's events,
/// and the session that reads the device, transfers, activates and confirms.
///
/// SMP with MCUboot images is `SMPUpdateProtocol` (`DFUCore/SMP/UpdateProtocol/`). A second protocol is a
/// sibling folder with its own conformance; it touches the engine only through this file.
protocol UpdateProtocol: Sendable {
    /// The update file after the verify-image stage.
    associatedtype Update: PreparedUpdate
    /// What consumes a link's notifications and its end, and serves each new link after a loss.
    associatedtype Client: LinkClient
    /// The protocol on one device, for the rest of the run.
    associatedtype Session: UpdateSession where Session.Update == Update

    /// Which protocol this is, as `--protocol` and the JSON name it.
    var name: UpdateProtocolName { get }
    /// The verify-image stage: parse and check `bytes` as `dfu verify` does; `DFUError.image`
    /// (exit 3) when the file is not acceptable.
    func prepare(_ bytes: [UInt8], key: PublicKey?, options: UpdateOptions) throws(DFUError) -> Update
    /// The device activates what it received by itself (Nordic: the bootloader, with its last
    /// Execute): there is no test or confirm step for `--mode` to choose.
    var activatesItself: Bool { get }
    /// The services, characteristics and properties the protocol needs on a device.
    var layout: any GATTLayout { get }
    /// Where a device the user named `peer` may answer (SMP: there; Nordic: also where a device left
    /// in DFU mode by an earlier run waits: its bootloader's address, or the name it was given).
    func peers(for peer: PeerIdentity, options: UpdateOptions) -> [PeerIdentity]
    /// A client on a freshly connected link whose layout passed (it subscribes to what it needs).
    func client(on link: any Link, context: SessionContext) async throws(LinkError) -> Client
    /// The rest of the connect stage once the client serves the link (negotiation): the session.
    func open(_ connection: DeviceConnection<Client>, context: SessionContext) async throws(DFUError) -> Session
}
