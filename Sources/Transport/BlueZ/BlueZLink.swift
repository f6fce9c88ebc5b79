import DBusBinding
import Transport

/// `Link` over BlueZ. writeWithoutResponse: through the `AcquireWrite` fd (SOCK_SEQPACKET,
/// non-blocking: on EAGAIN wait for writability with poll, never sleep, never drop), falling back
/// to `WriteValue(type: "command")` (serialised per characteristic, InProgress retried) when
/// AcquireWrite is refused. Notifications: StartNotify + PropertiesChanged(Value) (routed BEFORE
/// StartNotify; the bus match rule covers every bluetoothd signal from the start), never
/// AcquireNotify (see `subscribe`). Disconnection: Connected=false PropertiesChanged, InterfacesRemoved of
/// the device, or HUP/EOF on an acquired fd -> one `.disconnected` event, then every call throws
/// `.disconnected`. Signals of older generations are ignored (each link has its own observer).
///
/// parameters: attMTU from AcquireWrite's `mtu` or the characteristics' MTU property;
/// maxWriteWithoutResponse = min(attMTU − 3, 512), or 510 when the connector caps writes for BlueZ
/// ≤ 5.68 peers (`BlueZWriteCap`); phy/interval/llPayload nil. Opened by `BlueZConnector`.
public final class BlueZLink: Link {
    public let parameters: LinkParameters
    public let services: [GATTService]
    public let events: AsyncStream<LinkEvent>

    let client: BlueZClient
    let state: BlueZLinkState
    /// First occurrence of each characteristic UUID (CharacteristicID's documented rule).
    let characteristics: [CharacteristicID: BlueZCharacteristicInfo]
    let gates: BlueZGates
    let gatt: BlueZGATTCalls
    init(parameters: LinkParameters, services: [BlueZServiceInfo], events: AsyncStream<LinkEvent>,
         client: BlueZClient, state: BlueZLinkState) {
        self.parameters = parameters
        self.services = services.map(\.gattService)
        self.events = events
        self.client = client
        self.state = state
        var characteristics: [CharacteristicID: BlueZCharacteristicInfo] = [:]
        for characteristic in services.flatMap(\.characteristics) where characteristics[characteristic.id] == nil {
            characteristics[characteristic.id] = characteristic
        }
        self.characteristics = characteristics
        self.gates = BlueZGates()
        self.gatt = BlueZGATTCalls(client: client, state: state)
    }

    deinit {
        // Nobody can call disconnect() any more: release the fds and the observer. The BLE link
        // itself stays up until bluetoothd's own idle timer or our bus connection closes.
        if let observer = state.end(.localHostTerminated) { client.store.removeObserver(observer) }
    }

    public func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try state.checkOpen()
        let info = try lookUp(characteristic, needs: .writeWithoutResponse)
        guard bytes.count <= parameters.maxWriteWithoutResponse else {
            throw .payloadTooLarge(size: bytes.count, limit: parameters.maxWriteWithoutResponse)
        }
        if Task.isCancelled { throw .cancelled }
        let gate = gates.gate(for: characteristic)
        await gate.enter()
        defer { gate.leave() }
        try state.checkOpen()
        if state.writeSocket(for: characteristic) == nil, !state.acquireWasRefused(for: characteristic) {
            _ = try await gatt.acquireWrite(info)
        }
        if let socket = state.writeSocket(for: characteristic) {
            let end: BlueZAcquiredSocket.End
            switch await socket.send(bytes) {
            case .success: return
            case .failure(.cancelled): throw .cancelled
            case .failure(.ended(let why)): end = why
            // Only a socket serving many peers refuses one message; kept total rather than trapping.
            case .failure(.refused(let error)): end = .failed(error)
            }
            _ = state.handleSocket(.ended(end), notifying: nil).map(client.store.removeObserver)
            throw .disconnected(state.closingReason ?? .other("the link's socket closed"))
        }
        try await gatt.writeValue(bytes, to: info, type: "command")
    }

    public func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try state.checkOpen()
        let info = try lookUp(characteristic, needs: .write)
        guard bytes.count <= parameters.attMTU - 3 else {
            throw .payloadTooLarge(size: bytes.count, limit: parameters.attMTU - 3)
        }
        if Task.isCancelled { throw .cancelled }
        let gate = gates.gate(for: characteristic)
        await gate.enter()
        defer { gate.leave() }
        await waitUntilCommandsTaken()
        try await gatt.writeValue(bytes, to: info, type: "request")
    }

    /// The longest a Write Request waits for bluetoothd to read the Write Commands before it. It
    /// reads them within milliseconds unless its main loop is busy; a request sent earlier would
    /// overtake them, so the bound only guards against a socket that is never read.
    static let commandsTakenLimit: Duration = .seconds(10)

    /// A Write Request must not overtake the Write Commands written before it through an acquired
    /// socket (a Nordic Control Point request after the Packet writes it checks): bluetoothd reads
    /// one datagram per main-loop turn and may handle a D-Bus call in between (5.66 gatt-client.c
    /// `sock_read`), while what it has read goes out before any request (shared/att.c
    /// `pick_next_send_op`). So wait until it has read them all. The kernel raises no event when a
    /// peer reads, so this looks every millisecond, at most `commandsTakenLimit`; a socket that
    /// cannot say, or ended, does not hold the request.
    private func waitUntilCommandsTaken() async {
        let sockets = state.allWriteSockets
        guard !sockets.isEmpty else { return }
        let deadline = ContinuousClock.now.advanced(by: Self.commandsTakenLimit)
        while sockets.contains(where: { ($0.unreadByBluetoothd ?? 0) > 0 }), ContinuousClock.now < deadline {
            if (try? await Task.sleep(for: .milliseconds(1))) == nil { return }
        }
    }

    public func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        try state.checkOpen()
        let info = try lookUp(characteristic, needs: .read)
        let reply: [DBusValue]
        do throws(DBusError) {
            reply = try await client.call(info.path, BlueZNames.gattCharacteristic, "ReadValue", [.properties([:])],
                                          timeout: Self.operationTimeout)
        } catch {
            throw gatt.fail(error, on: characteristic, "ReadValue")
        }
        guard case .array("y", let values)? = reply.first else {
            throw .backend("ReadValue of \(characteristic) answered '\(reply.dbusSignature)', not 'ay'")
        }
        return values.compactMap { value -> UInt8? in
            if case .byte(let byte) = value { return byte }
            return nil
        }
    }

    public func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {
        try state.checkOpen()
        guard let info = characteristics[characteristic] else { throw .characteristicNotFound(characteristic) }
        guard info.flags.contains("notify") || info.flags.contains("indicate") else {
            throw .notSupported(characteristic, missing: .notify)
        }
        if state.isSubscribed(characteristic) { return }
        let gate = gates.gate(for: characteristic)
        await gate.enter()
        defer { gate.leave() }
        if state.isSubscribed(characteristic) { return }
        // Never AcquireNotify: on bluetoothd 5.66 one whose CCC needs more security than the link
        // has is never answered, and bluetoothd crashes ~30 s later (bluez-dbus.md §9). A bond
        // does not make it safe (a Just Works bond on a device that needs authentication), and
        // SMP's replies are few and small, so StartNotify's signals cost nothing that matters.
        try await gatt.startNotify(info)
    }

    /// Closes the fds, asks bluetoothd to disconnect, and waits (at most 10 s) for Connected=false.
    /// `events` ends with `.disconnected(.localHostTerminated)`.
    public func disconnect() async {
        guard state.beginDisconnect() else { return }
        let devicePath = state.devicePath
        _ = await client.callDetached(devicePath, BlueZNames.device, "Disconnect", timeout: Self.disconnectTimeout)
        let deadline = ContinuousClock.now.advanced(by: Self.disconnectTimeout)
        _ = await Task {
            await client.store.wait(until: deadline) { tree in
                tree.device(at: devicePath).map { !$0.connected } ?? true
            }
        }.value
        if let observer = state.end(.localHostTerminated) { client.store.removeObserver(observer) }
    }

    static let operationTimeout = BlueZGATTCalls.operationTimeout
    /// bleak waits 10 s for Connected=false after Disconnect.
    static let disconnectTimeout = Duration.seconds(10)

    func lookUp(_ id: CharacteristicID, needs: CharacteristicProperties) throws(LinkError) -> BlueZCharacteristicInfo {
        guard let info = characteristics[id] else { throw .characteristicNotFound(id) }
        guard info.properties.contains(needs) else { throw .notSupported(id, missing: needs) }
        return info
    }
}
