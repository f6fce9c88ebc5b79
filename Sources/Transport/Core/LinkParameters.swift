/// The facts of one connection, fixed while it lasts. Fields a backend cannot learn are nil: BlueZ
/// 5.66 reports the ATT MTU (`AcquireWrite`'s `mtu`) but not the PHY or the connection interval over
/// D-Bus, while the memory link knows everything it models.
public struct LinkParameters: Hashable, Sendable {
    /// Which connection attempt this is; stamped on every `LinkEvent`.
    public var generation: LinkGeneration
    /// The device on the other end.
    public var peer: PeerIdentity
    /// The negotiated ATT MTU (23…517).
    public var attMTU: Int
    /// The largest value one write without response may carry: `min(attMTU − 3, cap)`, where the
    /// cap covers stack limits (BlueZ: 512, or 510 toward BlueZ ≤ 5.68 peers; bluez-dbus.md §8).
    public var maxWriteWithoutResponse: Int
    /// The PHY, when known.
    public var phy: LinkPHY?
    /// The connection interval, when known.
    public var connectionInterval: Duration?
    /// The largest LL data PDU payload (27…251; 251 with Data Length Extension), when known.
    public var llPayload: Int?
    /// The radio's ceiling for a stream of full-size writes without response, in value bytes per
    /// second, when the backend has a timing model (the memory link does; BlueZ does not).
    public var writeCommandCeiling: Double?
    /// Whether each write without response reaches the device as one whole message and must never
    /// carry a fragment: true over UDP, where one SMP packet is exactly one datagram (Zephyr's UDP
    /// transport parses each datagram as a whole packet), and over BlueZ, where EATT (several ATT
    /// bearers, on by default between BlueZ peers) can reorder writes, which would scramble a packet
    /// spread over several, and nothing over D-Bus says whether EATT is on (bluez-dbus.md §8).
    /// False for the memory link, where a device with reassembly may collect one packet from
    /// several writes.
    public var writesAreWholeMessages: Bool
    /// Whether there is no connection to lose: over UDP a rebooting device is only noticed by its
    /// silence, so `events` never reports its reset.
    public var isConnectionless: Bool
    /// Pairing and encryption, when the backend has them (BlueZ); nil for links that have no such
    /// notion (memory, UDP).
    public var security: LinkSecurity?

    public init(generation: LinkGeneration, peer: PeerIdentity, attMTU: Int, maxWriteWithoutResponse: Int,
                phy: LinkPHY? = nil, connectionInterval: Duration? = nil, llPayload: Int? = nil,
                writeCommandCeiling: Double? = nil, writesAreWholeMessages: Bool = false, isConnectionless: Bool = false,
                security: LinkSecurity? = nil) {
        self.generation = generation
        self.peer = peer
        self.attMTU = attMTU
        self.maxWriteWithoutResponse = maxWriteWithoutResponse
        self.phy = phy
        self.connectionInterval = connectionInterval
        self.llPayload = llPayload
        self.writeCommandCeiling = writeCommandCeiling
        self.writesAreWholeMessages = writesAreWholeMessages
        self.isConnectionless = isConnectionless
        self.security = security
    }
}
