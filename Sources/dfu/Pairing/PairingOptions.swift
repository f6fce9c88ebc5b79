import ArgumentParsing
import BlueZTransport
import Transport

/// `--passkey N` and `--pair` for the commands that connect to one device (`flash`, `info`):
/// how a Bluetooth device that demands an authenticated link gets one (README, "Devices that
/// require pairing"). A group of its own: they mean nothing for the virtual device or UDP.
struct PairingOptions: ParsableArguments {
    @Option(valueName: "N",
            help: "The device's six-digit passkey (000000-999999), for devices that require an authenticated link (Zephyr's default for SMP with Bluetooth pairing); dfu pairs with it when the device asks. Without it, on a terminal dfu asks for the passkey when needed.")
    var passkey: Passkey?

    @Flag(help: "Pair and bond first, even if the device does not ask for it (needs --passkey, or a terminal).")
    var pair = false

    init() {}

    /// Called from the command's `validate()` with the parsed `--device`.
    func validate(for spec: DeviceSpec) throws(UsageError) {
        switch spec {
        case .address, .name:
            break
        case .simulator, .udp, .serial:
            if passkey != nil { throw UsageError("--passkey is for Bluetooth devices; it does not apply to --device \(spec)") }
            if pair { throw UsageError("--pair is for Bluetooth devices; it does not apply to --device \(spec)") }
        }
    }

    /// What the BlueZ connector may do: answer with `--passkey`; else ask on the terminal when
    /// there is one; else register no agent at all, so nothing can be accepted unasked.
    func pairing() -> BlueZPairing {
        BlueZPairing(input: Self.input(passkey: passkey), pairFirst: pair)
    }

    /// The passkey when given, else the terminal when there is one, else nothing.
    static func input(passkey: Passkey?) -> BlueZPairing.Input {
        if let passkey { return .passkey(passkey) }
        if let prompt = TerminalPairingPrompt.open() { return .prompt(prompt) }
        return .none
    }
}

// `public`: a public type's conformance to a public protocol (DFUCore's type, ArgumentParsing's protocol).
extension Passkey: ExpressibleByArgument {
    public init?(argument: String) { self.init(text: argument) }
    public static var expectedValue: String { "six digits, 000000 to 999999" }
    // Help never shows a passkey; it has no default anyway.
    public var helpDescription: String { description }
}
