import DFUCore
import Transport

/// Which update protocol a device offers, read from the services it advertises. SMP wins when a
/// device advertises both (an application with MCUmgr that also carries buttonless DFU).
enum ScanProtocol: Sendable, Equatable {
    /// MCUmgr over BLE (the SMP service): dfu can update it.
    case smp
    /// Nordic Secure DFU (0xFE59): an nRF5 SDK bootloader or a buttonless application; dfu updates it
    /// with a Nordic DFU package.
    case nordicSecureDFU
    /// Neither (listed only with `--all`).
    case other

    init(services: [ServiceID]) {
        if services.contains(DFUServiceIDs.smp) {
            self = .smp
        } else if services.contains(DFUServiceIDs.nordicSecureDFU) {
            self = .nordicSecureDFU
        } else {
            self = .other
        }
    }

    /// The services `dfu scan` looks for without `--all`.
    static let advertisedServices = [DFUServiceIDs.smp, DFUServiceIDs.nordicSecureDFU]

    /// The table's PROTOCOL column.
    var column: String {
        switch self {
        case .smp: return "SMP"
        case .nordicSecureDFU: return "Nordic DFU"
        case .other: return "-"
        }
    }

    /// The JSON `protocol` field; nil for `.other`.
    var jsonName: String? {
        switch self {
        case .smp: return "smp"
        case .nordicSecureDFU: return "nordic-secure-dfu"
        case .other: return nil
        }
    }

    /// Whether `dfu flash` can update a device offering this.
    var isSupported: Bool { self != .other }
}
