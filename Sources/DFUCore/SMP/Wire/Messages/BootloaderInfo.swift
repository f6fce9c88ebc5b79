/// Bootloader info (OS group, command 8, op read): `{}` names the bootloader, `{"query": "mode"}`
/// asks MCUboot's upgrade mode, which decides whether test and confirm apply at all.
public struct BootloaderInfoRequest: SMPRequest {
    public typealias Response = BootloaderInfoResponse
    public static var group: SMPGroup { .os }
    public static var command: UInt8 { OSMgmtCommand.bootloaderInfo.rawValue }
    public static var op: SMPOp { .read }

    public var query: String?

    public init(query: String? = nil) {
        self.query = query
    }

    public static let mode = BootloaderInfoRequest(query: "mode")

    public init(body: CBORMap) throws(SMPBodyError) {
        query = try SMPFields(body).optionalText("query")
    }

    public var body: CBORMap {
        var map: CBORMap = [:]
        map.append("query", ifPresent: query.map(CBORValue.text))
        return map
    }
}

/// `{"bootloader": "MCUboot"}` for no query; `{"mode": int, "no-downgrade"?: bool}` for "mode".
/// Each field is optional because which ones come depends on the query.
public struct BootloaderInfoResponse: SMPBody {
    public var bootloader: String?
    public var mode: Int64?
    public var noDowngrade: Bool?

    public init(bootloader: String? = nil, mode: Int64? = nil, noDowngrade: Bool? = nil) {
        self.bootloader = bootloader
        self.mode = mode
        self.noDowngrade = noDowngrade
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        let fields = SMPFields(body)
        bootloader = try fields.optionalText("bootloader")
        mode = try fields.optionalInt("mode")
        noDowngrade = try fields.optionalBool("no-downgrade")
    }

    public var body: CBORMap {
        var map: CBORMap = [:]
        map.append("bootloader", ifPresent: bootloader.map(CBORValue.text))
        map.append("mode", ifPresent: mode.map(CBORValue.int))
        map.append("no-downgrade", ifPresent: noDowngrade.map(CBORValue.bool))
        return map
    }

    /// `mode` as a known MCUboot mode; nil when absent or a value this code does not know.
    public var mcubootMode: MCUbootMode? { mode.flatMap(MCUbootMode.init(rawValue:)) }
}

/// MCUboot upgrade modes as bootloader info reports them (smp_group_0.rst; 7, the firmware loader,
/// is newer than that table: `MODE_FIRMWARE_LOADER = 7` in NordicSemiconductor/
/// Android-nRF-Connect-Device-Manager McuMgrBootloaderInfoResponse.java, MCUboot's
/// `MCUBOOT_FIRMWARE_LOADER` mode, a separate loader image updates the application).
public enum MCUbootMode: Int64, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case unknown = -1
    case singleApplication = 0
    case swapUsingScratch = 1
    case overwriteOnly = 2
    case swapWithoutScratch = 3
    case directXIP = 4
    case directXIPWithRevert = 5
    case ramLoad = 6
    case firmwareLoader = 7

    /// Whether a test boot that reverts unless confirmed exists in this mode (Nordic's apps skip
    /// test/confirm for DirectXIP without revert and for overwrite-only).
    public var supportsRevert: Bool {
        switch self {
        case .swapUsingScratch, .swapWithoutScratch, .directXIPWithRevert: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .singleApplication: return "single application"
        case .swapUsingScratch: return "swap using scratch"
        case .overwriteOnly: return "overwrite only"
        case .swapWithoutScratch: return "swap without scratch"
        case .directXIP: return "DirectXIP"
        case .directXIPWithRevert: return "DirectXIP with revert"
        case .ramLoad: return "RAM load"
        case .firmwareLoader: return "firmware loader"
        }
    }
}
