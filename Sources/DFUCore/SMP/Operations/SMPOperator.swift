import Transport

/// The everyday MCUmgr operations on one device, as mcumgr, smpmgr and nrfutil offer them: the image
/// list, test, confirm and erase, reset, echo (`dfu image …`, `dfu reset`, `dfu echo`). Each call
/// connects the way `dfu flash` does (the engine's connect stage: GATT check, MCUmgr parameters,
/// reassembly probe), sends its requests, and disconnects; the device is the one the engine would
/// update. A Nordic Secure DFU device (no SMP service) is refused before any request is sent.
///
///     let slots = try await SMPOperator(target: target).listImages()
///
/// Failures are `DFUError`s worded for the operation: exit 5 when the device cannot be reached, 4
/// for a device that has no SMP, 7 when it refuses a request or breaks the protocol, 8 when a
/// reset it accepted is not followed by the device coming back.
public struct SMPOperator: Sendable {
    public var target: UpdateEngine.Target
    /// `connect`, `request` and `reboot` are used; the upload's deadlines are not.
    public var deadlines: UpdateOptions.Deadlines
    public var clock: EngineClock
    /// What happens on the way: `.connected`, `.rebooting` and `.reconnected` (a reset that waits),
    /// `.log` and `.warning`.
    public var emit: @Sendable (UpdateEvent) -> Void

    public init(target: UpdateEngine.Target, deadlines: UpdateOptions.Deadlines = .init(), clock: EngineClock = .continuous,
                emit: @escaping @Sendable (UpdateEvent) -> Void = { _ in }) {
        self.target = target
        self.deadlines = deadlines
        self.clock = clock
        self.emit = emit
    }

    /// How events and messages name the device.
    public var device: String { target.label ?? target.peer.redacted }

    /// Connects, checks that the device speaks SMP, negotiates, runs `body` on the connection, and
    /// disconnects (also when `body` throws). `operation` names what the user asked for, for the
    /// refusal of a device without SMP.
    func run<T: Sendable>(_ operation: String,
                          _ body: (SMPOperationLink) async throws(DFUError) -> T) async throws(DFUError) -> T {
        var options = UpdateOptions()
        options.deadlines = deadlines
        let context = SessionContext(clock: clock, options: options, device: device, identity: target.peer.rawValue, emit: emit)
        context.log("connecting to \(device)")
        let deadline = clock.reachableBy(deadlines.connect)
        // Any update layout, so a Nordic device is told apart from one that is not there at all.
        let found = await LinkAttempts.run(target.connector, peers: [target.peer], until: deadline, clock: clock,
                                           layout: AnyUpdateLayout.all, verb: "connect",
                                           log: context.log) { _, peer, link async throws(LinkError) in (peer, link) }
        let first: (PeerIdentity, any Link)
        switch found {
        case .success(let made): first = made
        case .failure(let failure): throw failure.connectError(label: device, layout: SMPGATT.layout)
        }
        if SMPGATT.layout.problem(in: first.1.services) != nil {
            await first.1.disconnect()
            throw SMPOperationFailure.notSMP(operation, device: device)
        }
        let updateProtocol = SMPUpdateProtocol()
        let connection = try await DeviceConnection.open(
            target.connector, peers: [first.0], label: device, until: deadline, clock: clock, layout: updateProtocol.layout,
            client: { link async throws(LinkError) in try await updateProtocol.client(on: link, context: context) },
            adopting: first, log: context.log)
        do throws(DFUError) {
            let negotiated = try await SMPDeviceStateReader(connection: connection, context: context).negotiate()
            emit(.connected(ConnectionSummary(link: connection.link, device: device, identity: target.peer.rawValue, window: negotiated.window,
                                              flashRate: target.flashRate)))
            let result = try await body(SMPOperationLink(connection: connection, context: context, negotiated: negotiated))
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }
}
