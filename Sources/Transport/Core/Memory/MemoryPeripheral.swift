/// The device side of a memory link: what a virtual device implements to be reached over it.
///
/// Callbacks for one connection come one at a time, in the order their PDUs crossed the radio:
/// `handleConnect` first, `handleDisconnect` last, nothing after it. Everything that reached the
/// device before the link dropped is handed over before `handleDisconnect`; a model that discards
/// unfinished work on disconnect (as Zephyr's SMP transport does) does so there. Through a
/// `MemoryConnector`, connections follow one another the same way: the next connection's
/// `handleConnect` comes after this one's `handleDisconnect` has returned.
/// The device's receive side is not flow-controlled: a model that should drop writes when busy
/// (a device without free buffers) decides that in `handleWrite`.
public protocol MemoryPeripheral: Sendable {
    /// The GATT layout, read once per connection (a rebooted device may change it).
    var gattServices: [GATTService] { get async }

    /// A central connected; keep `session` to notify or drop the link, and release it in
    /// `handleDisconnect`.
    func handleConnect(_ session: MemoryPeripheralSession) async

    /// A Write Command (`withResponse` false; a thrown error goes nowhere, as on air) or a Write
    /// Request (the error is the central's `LinkError.rejected`).
    func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) async throws(ATTError)

    /// A Read Request; values over 512 bytes are cut to 512 (the ATT limit).
    func handleRead(_ characteristic: CharacteristicID) async throws(ATTError) -> [UInt8]

    /// The central enabled notifications on `characteristic`.
    func handleSubscription(_ characteristic: CharacteristicID) async

    /// Connection `generation` ended; `reason` as this side sees it. A model that may be handed
    /// connections without a `MemoryConnector` in between drops a `generation` older than the
    /// connection it holds (ARCHITECTURE: a late callback is rejected by its generation).
    func handleDisconnect(_ reason: DisconnectReason, generation: LinkGeneration) async
}

extension MemoryPeripheral {
    public func handleConnect(_ session: MemoryPeripheralSession) async {}
    public func handleRead(_ characteristic: CharacteristicID) async throws(ATTError) -> [UInt8] {
        throw .readNotPermitted
    }
    public func handleSubscription(_ characteristic: CharacteristicID) async {}
    public func handleDisconnect(_ reason: DisconnectReason, generation: LinkGeneration) async {}
}
