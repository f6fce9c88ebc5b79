/// `Link` over BlueZ. writeWithoutResponse: through the `AcquireWrite` fd (SOCK_SEQPACKET,
/// non-blocking: on EAGAIN wait for writability with poll, never sleep, never drop), falling back
/// to `WriteValue(type: "command")` (serialised per characteristic, InProgress retried) when
/// AcquireWrite is refused. Notifications: `AcquireNotify` fd, falling back to StartNotify +
/// PropertiesChanged(Value) (match rule registered BEFORE StartNotify). Disconnection:
/// Connected=false PropertiesChanged, InterfacesRemoved of the device, or HUP/EOF on an acquired fd
/// -> one `.disconnected` event, then every call throws `.disconnected`. Signals of older
/// generations are ignored.
public final class BlueZLink: Link {
    public let parameters: LinkParameters
    public let services: [GATTService]
    public let events: AsyncStream<LinkEvent>

    init(parameters: LinkParameters, services: [GATTService], events: AsyncStream<LinkEvent>) {
        self.parameters = parameters
        self.services = services
        self.events = events
    }

    public func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        throw .backend("not implemented yet")
    }

    public func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        throw .backend("not implemented yet")
    }

    public func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        throw .backend("not implemented yet")
    }

    public func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {
        throw .backend("not implemented yet")
    }

    public func disconnect() async {}
}
