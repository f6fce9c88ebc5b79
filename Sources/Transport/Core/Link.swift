/// The GATT-level view of ONE connected device: its connection facts, writes with back-pressure,
/// reads, notifications and the end of the connection. It knows GATT, MTU and flow control, never
/// firmware. Implementations: the in-memory link with a BLE timing model (`Transport/Core/Memory/`),
/// and one backend target per kind of link beside this core: BlueZ over D-Bus (`Transport/BlueZ/`),
/// UDP (`Transport/UDP/`), a serial port (`Transport/Serial/`).
///
/// A protocol (not one actor or class) because each backend needs its own isolation: the memory
/// link's state lives in an actor, BlueZ's in the single libdbus owner. `Sendable` so the engine's
/// driver may call it from any task.
///
/// A link is good for one connection. After `.disconnected` every call fails with
/// `LinkError.disconnected`; reconnect through a `Connector`, which hands out a new link with a
/// higher generation.
public protocol Link: Sendable {
    /// The connection's facts; fixed for the link's life.
    var parameters: LinkParameters { get }

    /// The device's services as discovered when the link came up.
    var services: [GATTService] { get }

    /// Notifications and the final `.disconnected`, each stamped with `parameters.generation`.
    /// One stream per link, for ONE consumer (AsyncStream traps on two concurrent iterators). It is
    /// buffered without limit, so events that arrive before the consumer starts are kept; it
    /// finishes right after `.disconnected`.
    var events: AsyncStream<LinkEvent> { get }

    /// Sends an ATT Write Command (no response). Returns once the local controller has taken the
    /// value into its transmit buffers; SUSPENDS while those buffers are full, which is the flow
    /// control (never a fixed delay, never a drop). Values are sent in call order. Throws
    /// `.payloadTooLarge` above `parameters.maxWriteWithoutResponse`, `.disconnected` if the link
    /// goes down before the value was taken, `.cancelled` if the task is cancelled while waiting.
    /// A value already taken is lost silently if the link then drops: the device's reply is the
    /// only proof of delivery.
    func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError)

    /// Sends an ATT Write Request and waits for the device's response. At most `attMTU − 3` bytes.
    /// It reaches the device after every Write Command written before it (a Nordic checksum
    /// request after the Packet writes it checks).
    func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError)

    /// Reads a characteristic's value.
    func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8]

    /// Enables notifications (writes the CCC descriptor) and returns when the device acknowledged.
    /// Notifications then arrive on `events`.
    func subscribe(_ characteristic: CharacteristicID) async throws(LinkError)

    /// Closes the connection. Waiting operations fail with `.disconnected(.localHostTerminated)` and
    /// `events` ends with that event. Calling it again does nothing.
    func disconnect() async
}
