import Transport

/// Serves an `SDKDevice` over the in-process memory link: the driver around the sans-I/O device. It
/// feeds connections, writes, subscriptions, disconnections and timer ticks in with the link clock's
/// time and carries out the actions: notifications in order through the radio's back-pressure, link
/// drops after what was queued before them, and advertising switched between the application's and
/// the bootloader's identity as the device resets.
///
///     let connector = MemoryConnector(clock: LinkClock(timeScale: 0.01)!)  // 100× real time
///     let device = await SDKPeripheral.serve(SDKDeviceConfiguration(publicKey: key), on: connector)
///     let app = try await connector.connect(to: device.applicationIdentity, deadline: .now + .seconds(5))
///     …                                    // buttonless 01: the device resets into the bootloader
///     let name = await device.bootloaderName  // what to look for
///     let dfu = try await connector.connect(to: device.bootloaderIdentity, deadline: .now + .seconds(5))
///
/// Use a paced clock (or a manual one moved by hand), not `LinkClock.unpaced()`: unpaced time jumps
/// to the next sleeper's deadline whenever the link is idle, so the bootloader's inactivity timer
/// (120 s by default) would fire between two requests. Setting `inactivityTimeout` to zero disables
/// that timer, as `NRF_BL_DFU_INACTIVITY_TIMEOUT_MS` 0 does.
///
/// It makes no protocol decisions.
public actor SDKPeripheral: MemoryPeripheral {
    private enum Outgoing: Sendable {
        case notify([UInt8], CharacteristicID, MemoryPeripheralSession)
        /// Close once everything queued before has gone over the air.
        case disconnect(MemoryPeripheralSession)
    }

    public nonisolated let applicationIdentity: PeerIdentity
    public nonisolated let bootloaderIdentity: PeerIdentity
    private let clock: LinkClock
    private let connector: MemoryConnector?
    private var device: SDKDevice
    private var session: MemoryPeripheralSession?
    private var outbox: [Outgoing] = []
    private var draining = false
    private var timer = SDKDeadlineTimer()

    /// `connector`, when given, is told which identity advertises as the device resets.
    public init(device: SDKDevice, clock: LinkClock, connector: MemoryConnector? = nil) {
        self.device = device
        self.clock = clock
        self.connector = connector
        applicationIdentity = device.configuration.applicationIdentity
        bootloaderIdentity = device.configuration.bootloaderIdentity
    }

    /// Builds the device and registers it with `connector` under the application identity
    /// (advertising) and the bootloader identity (not advertising until the device enters it).
    /// The profile's ATT MTU should not exceed `maximumMTU` (247): the bootloader drops longer
    /// Packet writes, as the SoftDevice does.
    public static func serve(_ configuration: SDKDeviceConfiguration, on connector: MemoryConnector,
                             profile: LinkProfile = .typical1M) async -> SDKPeripheral {
        let peripheral = SDKPeripheral(device: SDKDevice(configuration: configuration), clock: connector.clock,
                                       connector: connector)
        if peripheral.bootloaderIdentity != peripheral.applicationIdentity {
            await connector.register(peripheral, as: peripheral.bootloaderIdentity, profile: profile, advertising: false)
        }
        await connector.register(peripheral, as: peripheral.applicationIdentity, profile: profile, advertising: true)
        return peripheral
    }

    /// The device as it is now (a copy).
    public var snapshot: SDKDevice { device }
    public var mode: SDKDeviceMode { device.mode }
    public var counters: SDKDeviceCounters { device.counters }
    public var runningApplicationVersion: UInt32 { device.runningApplicationVersion }
    /// The name the bootloader advertises, or will when entered.
    public var bootloaderName: String { device.bootloaderName }
    /// What the device advertises now (nil while it boots).
    public var advertisement: SDKAdvertisement? { device.advertisement }

    public var gattServices: [GATTService] { device.gattServices }

    public func handleConnect(_ session: MemoryPeripheralSession) async {
        let actions = device.handle(.connected(session.parameters.peer), now: clock.now)
        if actions.contains(.dropLink(.notAdvertising)) {
            // Not this device's current image: refuse the connection without touching the one it holds.
            enqueue(.disconnect(session))
            return
        }
        self.session = session
        await perform(actions)
    }

    public func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) async throws(ATTError) {
        let actions = device.handle(.write(characteristic, value, withResponse: withResponse), now: clock.now)
        for case .refuseWrite(let error) in actions { throw error }
        await perform(actions)
    }

    public func handleRead(_ characteristic: CharacteristicID) async throws(ATTError) -> [UInt8] {
        try device.read(characteristic).get()
    }

    public func handleSubscription(_ characteristic: CharacteristicID) async {
        await perform(device.handle(.subscribed(characteristic), now: clock.now))
    }

    public func handleDisconnect(_ reason: DisconnectReason, generation: LinkGeneration) async {
        // Only the end of the connection the device holds is its disconnection; the end of one it
        // refused, or of one a reset already replaced, changes nothing.
        guard let current = session, current.generation == generation else { return }
        session = nil
        await perform(device.handle(.disconnected, now: clock.now))
    }

    private func tick() async {
        timer.fired()
        await perform(device.handle(.tick, now: clock.now))
    }

    private func perform(_ actions: [SDKDeviceAction]) async {
        for action in actions {
            switch action {
            case .notify(let bytes, let characteristic):
                if let session { enqueue(.notify(bytes, characteristic, session)) }
            case .dropLink:
                if let session { enqueue(.disconnect(session)) }
            case .stopAdvertising(let identity):
                await connector?.setAdvertising(false, for: identity)
            case .startAdvertising(let advertisement):
                await connector?.setAdvertising(true, for: advertisement.identity, name: advertisement.name)
            case .refuseWrite:
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

    /// Sends queued items one by one, in order, each waiting for the radio to take it.
    private func drain() async {
        while !outbox.isEmpty {
            switch outbox.removeFirst() {
            case .notify(let bytes, let characteristic, let session):
                // A notification on a link that is gone is lost, as sd_ble_gatts_hvx fails.
                try? await session.notify(bytes, from: characteristic)
            case .disconnect(let session):
                await session.flush()
                await session.disconnect()
            }
        }
        draining = false
    }
}
