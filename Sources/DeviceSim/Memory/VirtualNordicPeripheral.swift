import Transport

/// Serves a `NordicVirtualDevice` over the in-process memory link: the thin driver around it, as
/// `VirtualPeripheral` is for the SMP device. It registers the device twice with the connector,
/// as the application (advertising) and as the bootloader at address + 1 (not advertising), and
/// switches advertising between the two as the device resets. It makes no protocol decisions.
///
///     let connector = MemoryConnector(clock: .unpaced())
///     let sim = try await VirtualNordicPeripheral.serve(try SimOptions.parse("sim:protocol=nordic"), on: connector)
///     let app = try await connector.connect(to: sim.applicationIdentity, deadline: .now + .seconds(5))
///     … buttonless 01 …
///     let dfu = try await connector.connect(to: sim.bootloaderIdentity, deadline: .now + .seconds(5))
public actor VirtualNordicPeripheral: MemoryPeripheral {
    private enum Outgoing: Sendable {
        case notify([UInt8], CharacteristicID, MemoryPeripheralSession)
        case disconnect(MemoryPeripheralSession, flush: Bool)
    }

    public nonisolated let applicationIdentity: PeerIdentity
    public nonisolated let bootloaderIdentity: PeerIdentity
    private let clock: LinkClock
    private let connector: MemoryConnector?
    private var device: NordicVirtualDevice
    private var session: MemoryPeripheralSession?
    private var generation: LinkGeneration?
    private var outbox: [Outgoing] = []
    private var draining = false
    private var timer = DeadlineTimer()

    public init(device: NordicVirtualDevice, clock: LinkClock, connector: MemoryConnector? = nil) {
        applicationIdentity = device.applicationIdentity
        bootloaderIdentity = device.bootloaderIdentity
        self.device = device
        self.clock = clock
        self.connector = connector
    }

    /// Builds the device `options` describe (`protocol=nordic`) and registers both its identities
    /// with `connector`, with the link profile from `mtu`, `phy` and `interval` (the bootloader's
    /// MTU capped as `nordicBootloaderLinkProfile` says).
    public static func serve(_ options: SimOptions, on connector: MemoryConnector) async throws(SimOptionsError) -> VirtualNordicPeripheral {
        let peripheral = VirtualNordicPeripheral(device: try options.makeNordicDevice(), clock: connector.clock,
                                                 connector: connector)
        await connector.register(peripheral, as: peripheral.applicationIdentity, profile: try options.linkProfile())
        // A bootloader that keeps the address (with bonds) answers under the application's entry.
        if peripheral.bootloaderIdentity != peripheral.applicationIdentity {
            await connector.register(peripheral, as: peripheral.bootloaderIdentity,
                                     profile: try options.nordicBootloaderLinkProfile(), advertising: false)
        }
        try await serveNeighbours(options, on: connector)
        return peripheral
    }

    /// `bootloaders_nearby=N`: other nRF52s whose bootloaders wait in DFU mode under the default
    /// name, at addresses of their own, so that a central looking for "the" DfuTarg finds several.
    private static func serveNeighbours(_ options: SimOptions, on connector: MemoryConnector) async throws(SimOptionsError) {
        guard options.nordic.bootloadersNearby > 0 else { return }
        var configuration = try options.nordicDeviceConfiguration()
        for index in 1 ... options.nordic.bootloadersNearby {
            configuration.identity = PeerIdentity("\(options.identity.rawValue)/neighbour\(index)")
            configuration.bootloaderAddressing = .unrelated(to: configuration.identity)
            configuration.bootloader.linkDrops = []
            let neighbour = VirtualNordicPeripheral(device: NordicVirtualDevice(configuration: configuration),
                                                    clock: connector.clock, connector: connector)
            await connector.register(neighbour, as: neighbour.bootloaderIdentity,
                                     profile: try options.nordicBootloaderLinkProfile(), advertising: false)
            await neighbour.powerCycle(enterBootloader: true)
        }
    }

    /// The device as it is now (a copy): mode, settings, boots.
    public var snapshot: NordicVirtualDevice { device }

    public func setBatteryLevel(_ level: UInt8) {
        device.setBatteryLevel(level)
    }

    /// Removes power and restores it; `enterBootloader` as if the DFU button were held.
    public func powerCycle(enterBootloader: Bool = false) async {
        await perform(device.handle(.powerCycle(enterBootloader: enterBootloader), now: clock.now))
    }

    public var gattServices: [GATTService] { device.gattServices }

    public func handleConnect(_ session: MemoryPeripheralSession) async {
        self.session = session
        generation = session.generation
        await perform(device.handle(.connected, now: clock.now))
    }

    public func handleSubscription(_ characteristic: CharacteristicID) async {
        await perform(device.handle(.subscribed(characteristic), now: clock.now))
    }

    public func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) async throws(ATTError) {
        let actions = device.handle(.write(characteristic, value, withResponse: withResponse), now: clock.now)
        await perform(actions)
        for case .refuseWrite(let error) in actions { throw error }
    }

    public func handleRead(_ characteristic: CharacteristicID) async throws(ATTError) -> [UInt8] {
        guard let value = device.read(characteristic) else { throw .readNotPermitted }
        return value
    }

    public func handleDisconnect(_ reason: DisconnectReason, generation: LinkGeneration) async {
        if let newest = self.generation, generation < newest { return }
        session = nil
        await perform(device.handle(.disconnected, now: clock.now))
    }

    private func tick() async {
        timer.fired()
        await perform(device.handle(.tick, now: clock.now))
    }

    private func perform(_ actions: [NordicVirtualDevice.Action]) async {
        for action in actions {
            switch action {
            case .notify(let characteristic, let bytes):
                if let session { enqueue(.notify(bytes, characteristic, session)) }
            case .dropLink(let flush):
                if let session { enqueue(.disconnect(session, flush: flush)) }
                session = nil
            case .offline(let identity):
                // Before the link drops, so a central reconnecting at once waits for the reset.
                await connector?.setAdvertising(false, for: identity)
            case .online(let identity, let name):
                await connector?.setAdvertising(true, for: identity, name: name)
            case .refuseWrite, .bootloader, .answerDamaged:
                break
            }
        }
        timer.arm(at: device.nextDeadline, on: clock) { [weak self] in await self?.tick() }
    }

    private func enqueue(_ item: Outgoing) {
        outbox.append(item)
        guard !draining else { return }
        draining = true
        Task { await self.drain() }
    }

    /// Sends queued items in order, each waiting for the radio to take it.
    private func drain() async {
        while !outbox.isEmpty {
            switch outbox.removeFirst() {
            case .notify(let bytes, let characteristic, let session):
                try? await session.notify(bytes, from: characteristic)
            case .disconnect(let session, let flush):
                if flush { await session.flush() }
                await session.disconnect()
            }
        }
        draining = false
    }
}
