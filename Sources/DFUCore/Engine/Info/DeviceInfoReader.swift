import Transport

/// Reads `DeviceInfo` through the engine's own connect and read-device-state stages, so `dfu info`
/// and `dfu flash` see a device alike: the same GATT checks, the same negotiation, the same optional
/// requests (a device that refuses one is noted, not failed). The protocol is the one the device's
/// services show (the registry's first that fits: SMP), unless `updateProtocol` names one. Only reads: no request changes the
/// device.
///
///     let info = try await DeviceInfoReader(target: .init(connector: connector, peer: peer)).read()
///
/// Failures are the engine's: `deviceUnreachable` (exit 5) when the device cannot be reached or
/// stops answering, `deviceRejected` (exit 7) when it refuses a request or breaks the protocol.
public struct DeviceInfoReader: Sendable {
    public var target: UpdateEngine.Target
    /// How long connecting may take, retries included (real time).
    public var connectTimeout: Duration
    /// How long each request may take.
    public var requestTimeout: Duration
    public var clock: EngineClock
    /// The protocol to read the device with; nil: the one its services show.
    public var updateProtocol: UpdateProtocolName?
    /// The device waits in MCUboot's serial recovery (`serial:PATH,recovery`): its list is the
    /// bootloader's (`SMPDeviceStateReader.readRecoveryState`).
    public var serialRecovery = false

    public init(target: UpdateEngine.Target, connectTimeout: Duration = UpdateOptions.Deadlines().connect,
                requestTimeout: Duration = UpdateOptions.Deadlines().request, clock: EngineClock = .continuous,
                updateProtocol: UpdateProtocolName? = nil) {
        self.target = target
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.clock = clock
        self.updateProtocol = updateProtocol
    }

    /// Connects, reads, disconnects. `log` gets the engine's diagnostic lines, `warn` what the user
    /// should know (a battery level that is not a percentage).
    public func read(log: @escaping @Sendable (String) -> Void = { _ in },
                     warn: @escaping @Sendable (String) -> Void = { _ in }) async throws(DFUError) -> DeviceInfo {
        let device = target.label ?? target.peer.redacted
        log("connecting to \(device)")
        let deadline = clock.reachableBy(connectTimeout)
        // Wherever a protocol's device may wait is worth a look (a Nordic device left in DFU mode
        // waits at its bootloader's address), unless a protocol was asked for: then only its places.
        let entries = updateProtocol.map { asked in ProtocolRegistry.all.filter { $0.name == asked } } ?? ProtocolRegistry.all
        let peers = entries.flatMap { $0.updateProtocol.peers(target.peer, UpdateOptions()) }
            .reduce(into: [PeerIdentity]()) { unique, next in if !unique.contains(next) { unique.append(next) } }
        // Any update service will do for the link: a device that offers another protocol than the
        // one asked for is then told by what it offers.
        let first = await LinkAttempts.run(target.connector, peers: peers, until: deadline, clock: clock,
                                           layout: AnyUpdateLayout.all, verb: "connect", log: log) { _, peer, link async throws(LinkError) in
            (peer, link)
        }
        let link: (PeerIdentity, any Link)
        switch first {
        case .success(let made): link = made
        case .failure(let failure): throw failure.connectError(label: device, layout: updateProtocol.map(Self.layout) ?? AnyUpdateLayout.all)
        }
        if let asked = updateProtocol, let problem = Self.layout(asked).problem(in: link.1.services) {
            await link.1.disconnect()
            throw Self.offersAnother(device: device, asked: asked, problem: problem, services: link.1.services)
        }
        var options = UpdateOptions()
        options.deadlines.connect = connectTimeout
        options.deadlines.request = requestTimeout
        options.serialRecovery = serialRecovery ? .inRecovery : nil
        let context = SessionContext(clock: clock, options: options, device: device, identity: target.peer.rawValue, emit: { event in
            switch event {
            case .warning(let text): warn(text)
            case .log(let text): log(text)
            default: break
            }
        })
        let reading = InfoRead(target: target, context: context, deadline: deadline, link: link)
        // The protocol asked for, else the first (in registry order) whose layout the device offers.
        guard let entry = entries.first(where: { updateProtocol != nil || $0.layout.problem(in: link.1.services) == nil }) else {
            await link.1.disconnect()
            throw .internalError("\(device) passed the update layout check, but no protocol's layout")
        }
        return try await entry.readInfo(reading)
    }
}

extension DeviceInfoReader {
    static func layout(_ name: UpdateProtocolName) -> any GATTLayout {
        ProtocolRegistry.entry(named: name)?.layout ?? AnyUpdateLayout.all
    }

    /// `--protocol` named one the device does not offer: say which it offers instead (exit 5, as
    /// for a device without the asked protocol's service).
    static func offersAnother(device: String, asked: UpdateProtocolName, problem: String,
                              services: [GATTService]) -> DFUError {
        let offered = UpdateProtocolName.allCases.filter { $0 != asked && layout($0).problem(in: services) == nil }
        guard !offered.isEmpty else {
            return .deviceUnreachable("\(device) cannot be read: \(problem). \(layout(asked).missingHint)",
                                      cause: .layoutMissing(problem))
        }
        let instead = offered.map(\.description).joined(separator: " and ")
        return .deviceUnreachable("\(device) does not speak \(asked): \(problem). It offers \(instead) instead: run "
                                  + "without --protocol, or with --protocol \(offered.map(\.rawValue).joined(separator: " or ")).",
                                  cause: .layoutMissing(problem))
    }
}

/// One `dfu info` read on a link already made, by protocol.
struct InfoRead: Sendable {
    let target: UpdateEngine.Target
    let context: SessionContext
    let deadline: ContinuousClock.Instant
    /// The link already made, and the peer it goes to.
    let link: (PeerIdentity, any Link)

    /// Opens the protocol's connection on `link` (made already), runs `body`, closes.
    func with<P: UpdateProtocol, T: Sendable>(_ updateProtocol: P,
                                              _ body: (DeviceConnection<P.Client>) async throws(DFUError) -> T)
        async throws(DFUError) -> T {
        let context = context
        let connection = try await DeviceConnection.open(
            target.connector, peers: [link.0], label: context.device, until: deadline, clock: context.clock,
            layout: updateProtocol.layout,
            client: { link async throws(LinkError) in try await updateProtocol.client(on: link, context: context) },
            adopting: link, log: context.log)
        do throws(DFUError) {
            let result = try await body(connection)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    func summary(_ link: any Link, window: Int) -> ConnectionSummary {
        ConnectionSummary(link: link, device: context.device, identity: context.identity, window: window,
                          flashRate: target.flashRate)
    }

    func standardFacts(_ link: any Link, _ facts: DeviceFacts) async -> DeviceFacts {
        await StandardGATTReader(link: link, log: context.log, warn: context.warn).fill(facts)
    }
}
