import Transport

/// The GATT items a protocol needs, checked on every new link before anything is sent.
protocol GATTLayout: Sendable {
    /// Nil when `services` carry the protocol as an update needs it; else what is missing.
    func problem(in services: [GATTService]) -> String?
    /// What to check when the layout is missing on the device to be updated.
    var missingHint: String { get }
    /// Why a device that came back after its reset without the layout is a failure.
    func missingAfterReboot(_ problem: String) -> String
}
