/// The parts a Nordic DFU package can carry, named as manifest.json names them, in the order they are
/// sent: the system part (SoftDevice and/or bootloader) first, the application last (reference §3.5).
public enum NordicImageKind: String, Sendable, CaseIterable, CustomStringConvertible {
    case softdeviceBootloader = "softdevice_bootloader"
    case softdevice
    case bootloader
    case application

    public var description: String { rawValue }

    /// The init packet types that may stand under this manifest key.
    var allowedTypes: [NordicFirmwareType] {
        switch self {
        case .softdeviceBootloader: return [.softdeviceBootloader]
        case .softdevice: return [.softdevice]
        case .bootloader: return [.bootloader]
        case .application: return [.application, .externalApplication]
        }
    }
}
