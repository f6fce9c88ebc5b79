import Transport

/// Any GATT layout dfu can update through: what `dfu info` accepts before it knows the protocol.
struct AnyUpdateLayout: GATTLayout {
    let layouts: [any GATTLayout]

    static let all = AnyUpdateLayout(layouts: [SMPGATT.layout, NordicGATT.bootloaderOrButtonless])

    func problem(in services: [GATTService]) -> String? {
        let problems = layouts.map { $0.problem(in: services) }
        if problems.contains(where: { $0 == nil }) { return nil }
        return problems.compactMap { $0 }.joined(separator: "; ")
    }

    var missingHint: String {
        "Check that the device runs firmware with MCUmgr (SMP), or an nRF5 SDK secure bootloader or buttonless DFU application."
    }

    func missingAfterReboot(_ problem: String) -> String { "came back without an update service: \(problem)" }
}
