import Transport

/// The virtual device's own `org.bluez.Agent1` (`dfu sim --security … --passkey N`): registered on
/// the sim's bus connection and made the default agent, since bluetoothd asks the default agent for
/// a responder's answers (reference §9). `PeripheralAgentPolicy` decides; the passkey is never logged.
struct PeripheralAgent: Sendable {
    static func path(for root: String) -> String { root + "/agent" }

    let path: String
    let capability: String
    let policy: PeripheralAgentPolicy

    init?(root: String, adapter: String, pairing: PeripheralSecurity.Pairing) {
        guard let capability = pairing.agentCapability else { return nil }
        path = Self.path(for: root)
        self.capability = capability
        policy = PeripheralAgentPolicy(adapterPath: BlueZNames.adapterPath(adapter), pairing: pairing)
    }

    /// The exported object; `note` hears what was answered (for the sim's log, without passkeys).
    func object(note: @escaping @Sendable (String) -> Void) -> DBusExportedObject {
        let policy = self.policy
        let signatures: [String: DBusMethodSignature] = [
            "Release": .init(), "Cancel": .init(), "RequestPinCode": .init(arguments: "o", reply: "s"),
            "DisplayPinCode": .init(arguments: "os"), "RequestPasskey": .init(arguments: "o", reply: "u"),
            "DisplayPasskey": .init(arguments: "ouq"), "RequestConfirmation": .init(arguments: "ou"),
            "RequestAuthorization": .init(arguments: "o"), "AuthorizeService": .init(arguments: "os"),
        ]
        var methods: [String: DBusMethodHandler] = [:]
        for member in signatures.keys {
            methods[member] = { call in
                var device: String?
                if case .objectPath(let path)? = call.arguments.first { device = path }
                var shown: UInt32?
                if call.arguments.count > 1, case .uint32(let value) = call.arguments[1] { shown = value }
                switch policy.decide(member, device: device, passkey: shown) {
                case .passkey(let value):
                    note("pairing: answered the passkey request")
                    return [.uint32(value)]
                case .accept:
                    if device != nil { note("pairing: accepted \(member)") }
                    return []
                case .reject:
                    if device?.hasPrefix(policy.adapterPath + "/") == true { note("pairing: refused \(member)") }
                    throw DBusError.remote(name: "org.bluez.Error.Rejected", message: "Rejected")
                }
            }
        }
        return DBusExportedObject(path: path, interfaces: [
            DBusExportedInterface(name: "org.bluez.Agent1", methods: methods, signatures: signatures),
        ])
    }
}
