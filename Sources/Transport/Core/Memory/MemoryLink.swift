/// The central's end of an in-process connection to a `MemoryPeripheral`, through a modelled LE
/// radio (`LinkProfile`, `RadioTiming`) on a `LinkClock`. Our `EmbeddedChannel`: the engine and
/// the virtual device talk through it in tests and in `--device sim`.
///
/// Writes occupy controller buffers and leave in connection events at the modelled rate; a writer
/// suspends while the buffers are full. Notifications share the radio on the way back and reach
/// `events` after `notificationLatency`. Letting the last reference go disconnects.
public final class MemoryLink: Link {
    public let parameters: LinkParameters
    public let services: [GATTService]
    public let events: AsyncStream<LinkEvent>
    private let radio: MemoryRadio

    private init(parameters: LinkParameters, services: [GATTService], events: AsyncStream<LinkEvent>, radio: MemoryRadio) {
        self.parameters = parameters
        self.services = services
        self.events = events
        self.radio = radio
    }

    deinit {
        let radio = radio
        Task { await radio.drop(central: .localHostTerminated, peripheral: .remoteUserTerminated) }
    }

    /// Connects to `peripheral` at once (no advertising or connection set-up is modelled): reads its
    /// services, calls its `handleConnect`, then arms `faults`. Use `MemoryConnector` to model a
    /// device that reboots and is found again.
    public static func connect(to peripheral: any MemoryPeripheral, as peer: PeerIdentity, profile: LinkProfile,
                               clock: LinkClock, generation: LinkGeneration = LinkGeneration(1),
                               faults: [LinkFault] = []) async -> MemoryLink {
        await connect(to: peripheral, as: peer, profile: profile, clock: clock, adapter: nil, generation: generation,
                      faults: faults, onEnd: nil)
    }

    static func connect(to peripheral: any MemoryPeripheral, as peer: PeerIdentity, profile: LinkProfile,
                        clock: LinkClock, adapter: MemoryAdapter?, generation: LinkGeneration, faults: [LinkFault],
                        onEnd: (@Sendable (LinkGeneration) async -> Void)?) async -> MemoryLink {
        let services = await peripheral.gattServices
        let parameters = profile.parameters(generation: generation, peer: peer)
        let (events, userEvents) = AsyncStream.makeStream(of: LinkEvent.self)
        let (hostEvents, centralHost) = AsyncStream.makeStream(of: (MonotonicInstant, LinkEvent).self)
        let (inboxItems, inbox) = AsyncStream.makeStream(of: PeripheralInbound.self)
        let radio = MemoryRadio(profile: profile, clock: clock, parameters: parameters, adapter: adapter,
                                services: services, centralHost: centralHost, inbox: inbox)
        await radio.start(peripheral: peripheral, userEvents: userEvents, hostEvents: hostEvents, inboxItems: inboxItems,
                          onEnd: onEnd)
        await peripheral.handleConnect(MemoryPeripheralSession(radio: radio, parameters: parameters))
        for fault in faults { await radio.inject(fault) }
        return MemoryLink(parameters: parameters, services: services, events: events, radio: radio)
    }

    public func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try await radio.writeCommand(bytes, to: characteristic).get()
    }

    public func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        _ = try await radio.writeRequest(bytes, to: characteristic).get()
    }

    public func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        try await radio.read(characteristic).get()
    }

    public func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {
        _ = try await radio.subscribe(characteristic).get()
    }

    public func disconnect() async {
        await radio.drop(central: .localHostTerminated, peripheral: .remoteUserTerminated)
    }

    /// Arms a link-level fault on this connection (see `LinkFault`).
    public func inject(_ fault: LinkFault) async {
        await radio.inject(fault)
    }

    /// What the radio has carried so far.
    public func statistics() async -> MemoryLinkStatistics {
        await radio.statistics()
    }
}
