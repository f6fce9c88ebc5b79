import Transport

/// A device that logs the connections it is told about, in the order its callbacks ran. Its
/// `handleDisconnect` takes a few scheduler turns, as a device model that tidies up (discards queued
/// work, stops timers) does, so a new connection that does not wait for it overtakes it.
actor ConnectionLogPeripheral: MemoryPeripheral {
    enum Entry: Hashable, Sendable, CustomStringConvertible {
        case connected(LinkGeneration)
        /// Logged as `handleDisconnect` returns.
        case disconnected(LinkGeneration)

        var description: String {
            switch self {
            case .connected(let generation): return "connected \(generation)"
            case .disconnected(let generation): return "disconnected \(generation)"
            }
        }
    }

    private(set) var log: [Entry] = []
    private var sessions: [LinkGeneration: MemoryPeripheralSession] = [:]

    var gattServices: [GATTService] { TestGATT.services }

    func handleConnect(_ session: MemoryPeripheralSession) {
        log.append(.connected(session.generation))
        sessions[session.generation] = session
    }

    func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) {}

    func handleDisconnect(_ reason: DisconnectReason, generation: LinkGeneration) async {
        for _ in 0..<10 { await Task.yield() }
        log.append(.disconnected(generation))
    }

    /// The device's end of connection `generation` (`handleConnect` has run for it by the time
    /// `connect` returns).
    func session(_ generation: LinkGeneration) -> MemoryPeripheralSession? { sessions[generation] }
}
