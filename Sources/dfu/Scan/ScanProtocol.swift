import DFUCore
import Transport

/// Which update protocol a device offers, read from the services it advertises: the first entry of
/// the protocol registry whose service is among them (SMP wins when a device advertises both: an
/// application with MCUmgr that also carries buttonless DFU).
struct ScanProtocol: Sendable, Equatable {
    /// The protocol; nil: none dfu speaks (listed only with `--all`).
    let name: UpdateProtocolName?

    init(name: UpdateProtocolName?) { self.name = name }

    init(services: [ServiceID]) {
        name = ProtocolRegistry.entry(advertising: services)?.name
    }

    /// A device offering no protocol dfu speaks.
    static let other = ScanProtocol(name: nil)

    /// Every protocol and then `other`, in the order the summary counts them.
    static var all: [ScanProtocol] { ProtocolRegistry.all.map { ScanProtocol(name: $0.name) } + [.other] }

    /// The services `dfu scan` looks for without `--all`.
    static var advertisedServices: [ServiceID] { ProtocolRegistry.advertisedServices }

    /// The table's PROTOCOL column.
    var column: String { entry?.scanColumn ?? "-" }

    /// The JSON `protocol` field; nil for `.other`.
    var jsonName: String? { entry?.scanJSONName }

    /// Whether `dfu flash` can update a device offering this.
    var isSupported: Bool { name != nil }

    private var entry: ProtocolEntry? { name.flatMap(ProtocolRegistry.entry(named:)) }
}
