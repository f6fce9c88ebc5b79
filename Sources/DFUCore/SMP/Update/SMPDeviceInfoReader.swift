import Transport

/// What a device says about itself before an update: the link, the MCUmgr parameters, every image
/// slot, the slot size, the bootloader mode, battery and firmware revision. What `dfu info` shows.
public struct DeviceInfo: Sendable, Equatable {
    /// The link as it came up: MTU, largest write, PHY and interval when the backend knows them,
    /// and the upload window the device's buffers allow.
    public var connection: ConnectionSummary
    /// The facts `dfu flash` checks its preconditions against (running version and hash, battery,
    /// firmware revision, slot size, MCUmgr buffers, bootloader mode); nil where the device is silent.
    public var facts: DeviceFacts
    /// Every slot of the device's image list, in the order it sent them.
    public var slots: [ImageSlotState]

    public init(connection: ConnectionSummary, facts: DeviceFacts, slots: [ImageSlotState]) {
        self.connection = connection
        self.facts = facts
        self.slots = slots
    }
}

/// Reads `DeviceInfo` through the engine's own connect and read-device-state stages, so `dfu info`
/// and `dfu flash` see a device alike: the same GATT check, the same MCUmgr parameter negotiation,
/// the same optional requests (a device that refuses one is noted, not failed). Only reads: no
/// request changes the device.
///
///     let info = try await DeviceInfoReader(target: .init(connector: connector, peer: peer)).read()
///
/// Failures are the engine's: `deviceUnreachable` (exit 5) when the device cannot be reached or
/// stops answering, `deviceRejected` (exit 7) when it refuses the image list or breaks the protocol.
public struct DeviceInfoReader: Sendable {
    public var target: UpdateEngine.Target
    /// How long connecting may take, retries included (real time).
    public var connectTimeout: Duration
    /// How long each SMP request may take.
    public var requestTimeout: Duration
    public var clock: EngineClock

    public init(target: UpdateEngine.Target, connectTimeout: Duration = UpdateOptions.Deadlines().connect,
                requestTimeout: Duration = UpdateOptions.Deadlines().request, clock: EngineClock = .continuous) {
        self.target = target
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.clock = clock
    }

    /// Connects, reads, disconnects. `log` gets the engine's diagnostic lines, `warn` what the user
    /// should know (a battery level that is not a percentage).
    public func read(log: @escaping @Sendable (String) -> Void = { _ in },
                     warn: @escaping @Sendable (String) -> Void = { _ in }) async throws(DFUError) -> DeviceInfo {
        let device = target.label ?? target.peer.redacted
        log("connecting to \(device)")
        var options = UpdateOptions()
        options.deadlines.connect = connectTimeout
        options.deadlines.request = requestTimeout
        let context = SessionContext(clock: clock, options: options, device: device, emit: { event in
            switch event {
            case .warning(let text): warn(text)
            case .log(let text): log(text)
            default: break
            }
        })
        let smp = SMPUpdateProtocol()
        let connection = try await DeviceConnection.open(
            target.connector, peer: target.peer, label: device, until: clock.reachableBy(connectTimeout),
            clock: clock, layout: smp.layout,
            client: { link async throws(LinkError) in try await smp.client(on: link, context: context) }, log: log)
        let reader = SMPDeviceStateReader(connection: connection, device: device, requestTimeout: requestTimeout,
                                          log: log, warn: warn)
        do throws(DFUError) {
            let negotiated = try await reader.negotiate()
            let snapshot = try await reader.readImageState(negotiated)
            let facts = await StandardGATTReader(link: connection.link, log: log, warn: warn).fill(snapshot.facts)
            let summary = ConnectionSummary(link: connection.link, device: device, window: negotiated.window,
                                            flashRate: target.flashRate)
            await connection.close()
            return DeviceInfo(connection: summary, facts: facts, slots: snapshot.images.images)
        } catch {
            await connection.close()
            throw error
        }
    }
}
