/// The device's end of one memory connection, handed to `MemoryPeripheral.handleConnect`.
/// Stale once the connection ends: every call then fails with `.disconnected`.
public final class MemoryPeripheralSession: Sendable {
    /// The same facts the central sees, including the generation.
    public let parameters: LinkParameters
    private let radio: MemoryRadio

    init(radio: MemoryRadio, parameters: LinkParameters) {
        self.radio = radio
        self.parameters = parameters
    }

    public var generation: LinkGeneration { parameters.generation }

    /// Sends a notification (at most `attMTU − 3` bytes). Suspends while the device's transmit
    /// buffers are full, like Zephyr's `bt_gatt_notify` waiting for a buffer. Fails with
    /// `.notSubscribed` before the central subscribed.
    public func notify(_ value: [UInt8], from characteristic: CharacteristicID) async throws(LinkError) {
        try await radio.notify(value, from: characteristic).get()
    }

    /// Returns once every notification and response the device queued has gone over the air (or
    /// the link dropped). `notify` returns when the controller took the value, not when it was
    /// sent, so a device that answers a reset command and then reboots waits here first, as
    /// Zephyr's reset delay lets the response out.
    public func flush() async {
        await radio.flush()
    }

    /// Whether the central has enabled notifications on `characteristic`.
    public func isSubscribed(_ characteristic: CharacteristicID) async -> Bool {
        await radio.isSubscribed(characteristic)
    }

    public var isConnected: Bool {
        get async { await radio.isOpen }
    }

    /// The device closes the link (e.g. to reboot): the central sees `.remoteUserTerminated`, the
    /// device's `handleDisconnect` `.localHostTerminated`. Data still in buffers is lost.
    public func disconnect() async {
        await radio.drop(central: .remoteUserTerminated, peripheral: .localHostTerminated)
    }
}
