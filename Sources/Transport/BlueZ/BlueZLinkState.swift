import Synchronization
import Transport

/// The mutable heart of one `BlueZLink`: whether it has ended and why, its acquired sockets, its
/// notification subscriptions and its event stream. Everything that can end the link (Connected=
/// false, the device's InterfacesRemoved, a hang-up on an acquired fd, bluetoothd or the bus going,
/// `disconnect()`) goes through `end(_:)`, which acts once: one `.disconnected` event, the stream
/// finishes, sockets close, the tree observer goes. Anything arriving later is dropped, so a late
/// signal or fd event never reaches this link's consumer, let alone a newer link's (each link has
/// its own observer, sockets and stream, stamped with its own generation).
final class BlueZLinkState: Sendable {
    let generation: LinkGeneration
    let devicePath: String
    private let continuation: AsyncStream<LinkEvent>.Continuation
    private let state = Mutex(State())

    private struct State {
        var end: DisconnectReason?
        var disconnecting = false
        var observerID: UInt64?
        var writeSockets: [CharacteristicID: BlueZAcquiredSocket] = [:]
        /// Characteristics whose AcquireWrite was refused: they use WriteValue(type: command).
        var acquireRefused: Set<CharacteristicID> = []
        var notifySockets: [CharacteristicID: BlueZAcquiredSocket] = [:]
        /// StartNotify fallback: characteristic object path → its ID, for PropertiesChanged(Value).
        var signalNotify: [String: CharacteristicID] = [:]
    }

    init(generation: LinkGeneration, devicePath: String, continuation: AsyncStream<LinkEvent>.Continuation) {
        self.generation = generation
        self.devicePath = devicePath
        self.continuation = continuation
    }

    /// Why the link ended; nil while it is up.
    var endReason: DisconnectReason? { state.withLock { $0.end } }

    /// Throws `.disconnected` once the link has ended (or `disconnect()` has begun).
    func checkOpen() throws(LinkError) {
        if let end = closingReason { throw .disconnected(end) }
    }

    /// Why operations fail now: the end's reason, `.localHostTerminated` while `disconnect()` runs,
    /// nil while the link is up.
    var closingReason: DisconnectReason? {
        state.withLock { $0.end ?? ($0.disconnecting ? .localHostTerminated : nil) }
    }

    func setObserver(_ id: UInt64) -> Bool {
        state.withLock { state in
            guard state.end == nil else { return false }
            state.observerID = id
            return true
        }
    }

    // MARK: - Ending

    /// Ends the link once; returns the observer id to remove (the caller removes it from the store,
    /// outside this lock).
    @discardableResult
    func end(_ reason: DisconnectReason) -> UInt64? {
        let ended = state.withLock { state -> (UInt64?, [BlueZAcquiredSocket])? in
            guard state.end == nil else { return nil }
            let reason = state.disconnecting ? .localHostTerminated : reason
            state.end = reason
            continuation.yield(LinkEvent(generation: generation, kind: .disconnected(reason)))
            continuation.finish()
            let sockets = Array(state.writeSockets.values) + Array(state.notifySockets.values)
            state.writeSockets = [:]
            state.notifySockets = [:]
            state.signalNotify = [:]
            return (state.observerID, sockets)
        }
        guard let ended else { return nil }
        // Closed from a task of its own: `end` may run inside a socket's own delivery (a hang-up),
        // and closing that socket there would take its lock twice.
        let sockets = ended.1
        if !sockets.isEmpty { Task { for socket in sockets { socket.close() } } }
        return ended.0
    }

    /// Marks a `disconnect()` in progress (the end is then `.localHostTerminated`) and closes the
    /// acquired sockets, which releases them in bluetoothd. False if the link had already ended.
    func beginDisconnect() -> Bool {
        let sockets = state.withLock { state -> [BlueZAcquiredSocket]? in
            guard state.end == nil else { return nil }
            state.disconnecting = true
            let sockets = Array(state.writeSockets.values) + Array(state.notifySockets.values)
            state.writeSockets = [:]
            state.notifySockets = [:]
            return sockets
        }
        guard let sockets else { return false }
        for socket in sockets { socket.close() }
        return true
    }

    // MARK: - Events from the tree

    /// Reacts to a change of bluetoothd's tree; returns an observer id to remove when it ended the link.
    func handle(_ event: BlueZTreeStore.Event) -> UInt64? {
        switch event {
        case .changed(.properties(let path, BlueZNames.device, let changed, _), _) where path == devicePath:
            if case .bool(false)? = changed["Connected"] {
                return end(.other("the device disconnected (bluetoothd reported Connected=false)"))
            }
        case .changed(.removed(let path, let interfaces), _) where path == devicePath && interfaces.contains(BlueZNames.device):
            return end(.other("the device was removed from bluetoothd"))
        case .changed(.properties(let path, BlueZNames.gattCharacteristic, let changed, _), _):
            guard case .array("y", let values)? = changed["Value"] else { return nil }
            let target = state.withLock { $0.end == nil ? $0.signalNotify[path] : nil }
            guard let target else { return nil }
            let bytes = values.compactMap { value -> UInt8? in
                if case .byte(let byte) = value { return byte }
                return nil
            }
            deliver(.notification(target, bytes))
        case .bluetoothdLeft:
            return end(.other("bluetoothd stopped"))
        case .busLost:
            return end(.other("the D-Bus connection to bluetoothd was lost"))
        default:
            break
        }
        return nil
    }

    /// Yields an event unless the link has ended (checked under the lock, so nothing follows
    /// `.disconnected`).
    func deliver(_ kind: LinkEvent.Kind) {
        state.withLock { state in
            guard state.end == nil else { return }
            continuation.yield(LinkEvent(generation: generation, kind: kind))
        }
    }

    // MARK: - Sockets and subscriptions

    func writeSocket(for id: CharacteristicID) -> BlueZAcquiredSocket? {
        state.withLock { $0.writeSockets[id] }
    }

    var allWriteSockets: [BlueZAcquiredSocket] {
        state.withLock { Array($0.writeSockets.values) }
    }

    func acquireWasRefused(for id: CharacteristicID) -> Bool {
        state.withLock { $0.acquireRefused.contains(id) }
    }

    func markAcquireRefused(for id: CharacteristicID) {
        _ = state.withLock { $0.acquireRefused.insert(id) }
    }

    /// Keeps an acquired socket; false (and the socket is closed) if the link ended meanwhile.
    func keep(_ socket: BlueZAcquiredSocket, for id: CharacteristicID, notify: Bool) -> Bool {
        let kept = state.withLock { state -> Bool in
            guard state.end == nil else { return false }
            if notify { state.notifySockets[id] = socket } else { state.writeSockets[id] = socket }
            return true
        }
        if !kept { socket.close() }
        return kept
    }

    func isSubscribed(_ id: CharacteristicID) -> Bool {
        state.withLock { $0.notifySockets[id] != nil || $0.signalNotify.values.contains(id) }
    }

    /// Routes PropertiesChanged(Value) of `path` to notifications of `id` (before StartNotify).
    func routeValueSignals(of path: String, to id: CharacteristicID) {
        state.withLock { $0.signalNotify[path] = id }
    }

    func stopRoutingValueSignals(of path: String) {
        _ = state.withLock { $0.signalNotify.removeValue(forKey: path) }
    }

    /// An event from an acquired socket.
    func handleSocket(_ event: BlueZAcquiredSocket.Event, notifying id: CharacteristicID?) -> UInt64? {
        switch event {
        case .datagram(let bytes):
            if let id { deliver(.notification(id, bytes)) }
            return nil
        case .ended(.closed):
            return nil
        case .ended(.hangUp):
            return end(.other("bluetoothd closed the link's socket (the connection dropped)"))
        case .ended(.failed(let error)):
            return end(.other("the link's socket failed: \(error)"))
        }
    }
}
