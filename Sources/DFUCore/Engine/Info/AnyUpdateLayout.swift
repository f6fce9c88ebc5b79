import Transport

/// Any GATT layout dfu can update through: what `dfu info` accepts before it knows the protocol.
struct AnyUpdateLayout: GATTLayout {
    let layouts: [any GATTLayout]
    /// What a device offering each protocol runs, in the registry's order.
    let runs: [String]

    static var all: AnyUpdateLayout {
        AnyUpdateLayout(layouts: ProtocolRegistry.all.map(\.layout), runs: ProtocolRegistry.all.map(\.runsHint))
    }

    func problem(in services: [GATTService]) -> String? {
        let problems = layouts.map { $0.problem(in: services) }
        if problems.contains(where: { $0 == nil }) { return nil }
        return problems.compactMap { $0 }.joined(separator: "; ")
    }

    var missingHint: String {
        "Check that the device runs " + runs.joined(separator: ", or ") + "."
    }

    func missingAfterReboot(_ problem: String) -> String { "came back without an update service: \(problem)" }
}
