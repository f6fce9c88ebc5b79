import Transport

/// Hands a memory peripheral its connections one after another: a new connection's `handleConnect`
/// waits until the previous connection's `handleDisconnect` has run.
///
/// Why: `MemoryConnector` makes a device connectable again as soon as its link drops, while the
/// peripheral learns of the drop a little later, on the old link's own task. When the engine
/// reconnects at once (after a `disconnect@` fault, or a reset), the virtual device could see the
/// new connection first and the old disconnection after it, and then take itself for disconnected
/// while the new link is up: every request on it went unanswered. A real device handles its
/// disconnection before it advertises again, which is what this restores. It can go once the
/// memory connector itself waits for `handleDisconnect` before reconnecting.
actor SequentialPeripheral: MemoryPeripheral {
    private let inner: any MemoryPeripheral
    /// Connections handed over whose disconnection has not been yet.
    private var open = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ inner: any MemoryPeripheral) { self.inner = inner }

    nonisolated var gattServices: [GATTService] {
        get async { await inner.gattServices }
    }

    func handleConnect(_ session: MemoryPeripheralSession) async {
        while open > 0 {
            await withCheckedContinuation { waiting.append($0) }
        }
        open += 1
        await inner.handleConnect(session)
    }

    func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) async throws(ATTError) {
        try await inner.handleWrite(value, to: characteristic, withResponse: withResponse)
    }

    func handleRead(_ characteristic: CharacteristicID) async throws(ATTError) -> [UInt8] {
        try await inner.handleRead(characteristic)
    }

    func handleSubscription(_ characteristic: CharacteristicID) async {
        await inner.handleSubscription(characteristic)
    }

    func handleDisconnect(_ reason: DisconnectReason) async {
        await inner.handleDisconnect(reason)
        open = max(0, open - 1)
        let resumed = waiting
        waiting = []
        for continuation in resumed { continuation.resume() }
    }
}
