import Transport

/// Serves a `VirtualDevice` over the in-process memory link: the thin driver around the sans-I/O
/// device. It feeds connections, writes, disconnections and timer ticks in with the link clock's
/// time and carries out the device's actions: notifications in order (through the radio's
/// back-pressure), link drops, and advertising off while the device reboots and on again after.
///
///     let clock = LinkClock.unpaced()
///     let connector = MemoryConnector(clock: clock)
///     let peripheral = try await VirtualPeripheral.serve(SimOptions.parse("sim:version=1.0.0"),
///                                                         on: connector)
///     let link = try await connector.connect(to: peripheral.identity, deadline: .now + .seconds(5))
///
/// It makes no protocol decisions: everything SMP, flash or MCUboot happens in `VirtualDevice`.
public actor VirtualPeripheral: MemoryPeripheral {
    private enum Outgoing: Sendable {
        case notify([UInt8], after: Duration, session: MemoryPeripheralSession)
        /// Close the link once everything queued before it was handed over; `flush` first waits
        /// until it went out over the air (a reset reply before the reboot).
        case disconnect(MemoryPeripheralSession, flush: Bool)
    }

    public nonisolated let identity: PeerIdentity
    private let clock: LinkClock
    private let connector: MemoryConnector?
    private var device: VirtualDevice
    private var session: MemoryPeripheralSession?
    /// The newest connection the device was handed: the disconnection of an earlier one is stale.
    private var generation: LinkGeneration?
    private var outbox: [Outgoing] = []
    private var draining = false
    private var timer = DeadlineTimer()
    private var uploads = UploadWatch()
    private let observer: @Sendable (VirtualPeripheralEvent) -> Void

    /// `connector`, when given, is told to stop and restart advertising around reboots; without
    /// one a reboot only drops the link. `observer` hears of uploads completed, resets and faults
    /// as the device reaches them.
    public init(device: VirtualDevice, clock: LinkClock, connector: MemoryConnector? = nil,
                observer: @escaping @Sendable (VirtualPeripheralEvent) -> Void = { _ in }) {
        self.identity = device.identity
        self.device = device
        self.clock = clock
        self.connector = connector
        self.observer = observer
    }

    /// Builds the device `options` describe and registers it with `connector` under its identity,
    /// with the link profile from `mtu`, `phy` and `interval`.
    public static func serve(_ options: SimOptions, on connector: MemoryConnector,
                             observer: @escaping @Sendable (VirtualPeripheralEvent) -> Void = { _ in })
        async throws(SimOptionsError) -> VirtualPeripheral {
        let peripheral = VirtualPeripheral(device: try options.makeDevice(), clock: connector.clock, connector: connector,
                                           observer: observer)
        await connector.register(peripheral, as: peripheral.identity, profile: try options.linkProfile())
        return peripheral
    }

    /// The device as it is now (a copy): slots, session, boots, battery.
    public var snapshot: VirtualDevice { device }

    /// Changes the battery level the device reports.
    public func setBatteryLevel(_ level: UInt8) {
        device.batteryLevel = min(level, 100)
    }

    public nonisolated var gattServices: [GATTService] {
        get async { DeviceGATT.services }
    }

    public func handleConnect(_ session: MemoryPeripheralSession) async {
        self.session = session
        generation = session.generation
        await perform(device.handle(.connected(notificationSize: session.parameters.attMTU - 3), now: clock.now))
    }

    public func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) async throws(ATTError) {
        guard characteristic == DeviceGATT.smpCharacteristic else { throw .writeNotPermitted }
        await perform(device.handle(.write(value), now: clock.now))
    }

    public func handleRead(_ characteristic: CharacteristicID) async throws(ATTError) -> [UInt8] {
        guard let value = device.read(characteristic) else { throw .readNotPermitted }
        return value
    }

    public func handleDisconnect(_ reason: DisconnectReason, generation: LinkGeneration) async {
        // A late disconnection of an earlier connection must not take the current one down.
        if let newest = self.generation, generation < newest { return }
        session = nil
        await perform(device.handle(.disconnected, now: clock.now))
    }

    private func tick() async {
        timer.fired()
        await perform(device.handle(.tick, now: clock.now))
    }

    private func perform(_ actions: [VirtualDevice.Action]) async {
        // Advertising must stop before the link drops, or a central waiting to reconnect would
        // reach the device while it is still in the bootloader.
        if let connector, actions.contains(where: { if case .rebooting = $0 { true } else { false } }) {
            await connector.setAdvertising(false, for: identity)
        }
        _ = uploads.observe(device.server.uploadSession)
        for action in actions {
            switch action {
            case .notify(let bytes, let after, _):
                if case .completed(let length)? = uploads.reply(bytes, session: device.server.uploadSession) {
                    observer(.uploadCompleted(length: length))
                }
                if let session { enqueue(.notify(bytes, after: after, session: session)) }
            case .dropLink(let cause):
                if let session { enqueue(.disconnect(session, flush: cause != .fault)) }
                session = nil
            case .online:
                await connector?.setAdvertising(true, for: identity)
            case .rebooting(_, let report):
                _ = uploads.reset()
                observer(.rebooting(report))
            case .faultInjected(let fault):
                observer(.faultInjected(fault))
            case .dropped:
                break
            }
        }
        armTimer()
    }

    /// One timer for the device's next deadline, replaced whenever the device changes.
    private func armTimer() {
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
            case .notify(let bytes, let after, let session):
                if after > .zero { try? await clock.sleep(until: clock.now.advanced(by: after)) }
                // A notification for a link that is gone, or before the central subscribed, is
                // lost, as bt_gatt_notify fails on a real device.
                try? await session.notify(bytes, from: DeviceGATT.smpCharacteristic)
            case .disconnect(let session, let flush):
                if flush { await session.flush() }
                await session.disconnect()
            }
        }
        draining = false
    }
}
