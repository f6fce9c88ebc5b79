import BlueZTransport
import DBusBinding
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

    static let signatures: [String: DBusMethodSignature] = [
        "Release": .init(), "Cancel": .init(), "RequestPinCode": .init(arguments: "o", reply: "s"),
        "DisplayPinCode": .init(arguments: "os"), "RequestPasskey": .init(arguments: "o", reply: "u"),
        "DisplayPasskey": .init(arguments: "ouq"), "RequestConfirmation": .init(arguments: "ou"),
        "RequestAuthorization": .init(arguments: "o"), "AuthorizeService": .init(arguments: "os"),
    ]

    /// The exported object. Its calls go to `handler`, the peripheral's: every call on the sim's
    /// connection must pass its `ArrivalOrder`, or the GATT calls after an agent call would wait
    /// for it for ever (measured on the rig: the sim stopped answering after pairing).
    func object(handler: @escaping DBusMethodHandler) -> DBusExportedObject {
        DBusExportedObject(path: path, interfaces: [
            DBusExportedInterface(name: BlueZNames.agent, methods: Self.signatures.mapValues { _ in handler },
                                  signatures: Self.signatures),
        ])
    }

    /// The reply to one Agent1 call, and what to log (never the passkey).
    func answer(_ call: DBusMethodCall) throws -> (reply: [DBusValue], note: String?) {
        var device: String?
        if case .objectPath(let path)? = call.arguments.first { device = path }
        var shown: UInt32?
        if call.arguments.count > 1, case .uint32(let value) = call.arguments[1] { shown = value }
        switch policy.decide(call.member, device: device, passkey: shown) {
        case .passkey(let value):
            return ([.uint32(value)], "pairing: answered the passkey request")
        case .accept:
            return ([], device == nil ? nil : "pairing: accepted \(call.member)")
        case .reject:
            // Requests for the other adapter's devices (one bluetoothd serving both) are not ours to log.
            if device?.hasPrefix(policy.adapterPath + "/") == true {
                throw Refusal(note: "pairing: refused \(call.member)")
            }
            throw Refusal(note: nil)
        }
    }

    /// `org.bluez.Error.Rejected`, with the line to log.
    struct Refusal: Error {
        let note: String?
        var dbusError: DBusError { .remote(name: "org.bluez.Error.Rejected", message: "Rejected") }
    }
}
