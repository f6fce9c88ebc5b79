/// How a connector may pair a device that demands a secure link (bluez-dbus.md §9).
///
/// - `.none`: no agent at all. Nothing can be accepted on the user's behalf; a device that needs
///   pairing ends the connect with `LinkError.authentication` and the fix.
/// - `.passkey(N)`: an agent with capability KeyboardOnly that answers the device's passkey
///   request with N (a central that is told the passkey must be KeyboardOnly: §9). An unpaired
///   device is paired before it is used (`pairsBeforeUse`).
/// - `.prompt(P)`: an agent with capability KeyboardDisplay that asks the person at the terminal:
///   the passkey the device shows, or whether a number matches (numeric comparison).
///
/// `pairFirst`: pair an unpaired device before anything else, even when it did not ask (factory
/// lines that bond every unit).
public struct BlueZPairing: Sendable {
    public enum Input: Sendable {
        case none
        case passkey(Passkey)
        case prompt(any BlueZPairingPrompt)
    }

    public var input: Input
    public var pairFirst: Bool

    public init(input: Input = .none, pairFirst: Bool = false) {
        self.input = input
        self.pairFirst = pairFirst
    }

    /// No agent, no pairing up front: the default.
    public static let none = BlueZPairing()

    /// Whether an unpaired device is paired before its first GATT request: with `pairFirst`, and
    /// whenever the passkey was given. Letting the device refuse first would make bluetoothd
    /// start a pairing of its own with the default agent (another program's, or the device's own
    /// when one bluetoothd serves both), racing ours; on the rig that left the link half-paired
    /// and once crashed bluetoothd 5.66.
    var pairsBeforeUse: Bool {
        if pairFirst { return true }
        if case .passkey = input { return true }
        return false
    }

    /// The IO capability the agent registers with; nil: no agent.
    var capability: String? {
        switch input {
        case .none: return nil
        case .passkey: return "KeyboardOnly"
        case .prompt: return "KeyboardDisplay"
        }
    }
}

/// The person at the terminal, asked by the agent during pairing. `device` is how the device is
/// named to them (shortened address unless they asked for it in full). Each call may take as long
/// as the person needs; bluetoothd cancels the request on its own timeout.
public protocol BlueZPairingPrompt: Sendable {
    /// The passkey the device displays; nil: the person declined.
    func enterPasskey(device: String) async -> Passkey?
    /// Numeric comparison: whether the device shows `passkey`.
    func confirm(passkey: Passkey, device: String) async -> Bool
    /// The passkey to type on the device.
    func display(passkey: Passkey, device: String) async
    /// bluetoothd gave up on the request (timeout, the device cancelled).
    func cancelled() async
}
