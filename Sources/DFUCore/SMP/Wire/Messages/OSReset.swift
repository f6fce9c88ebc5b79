/// Reset (OS group, command 5, op write). The device answers first and reboots about 250 ms later,
/// so the link drops after the response. `force` overrides an application that refused with
/// `MCUmgrError.busy`. Success is an empty body.
public struct OSResetRequest: SMPRequest {
    public typealias Response = SMPEmptyBody
    public static var group: SMPGroup { .os }
    public static var command: UInt8 { OSMgmtCommand.reset.rawValue }
    public static var op: SMPOp { .write }

    public var force: Bool?
    /// `boot_mode`: what the bootloader is to do after this reset (Zephyr's retention boot mode
    /// with `CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE`; 1 keeps MCUboot in serial recovery). A device
    /// built without it skips the key and resets as usual.
    public var bootMode: UInt8?

    public init(force: Bool? = nil, bootMode: UInt8? = nil) {
        self.force = force
        self.bootMode = bootMode
    }

    /// Zephyr decodes `force` as a boolean; its docs type it as an integer (> 0 forces) and the
    /// `smp` package sends 0/1. Both decode, so the virtual device serves every client.
    public init(body: CBORMap) throws(SMPBodyError) {
        switch body["force"] {
        case nil: force = nil
        case .bool(let b)?: force = b
        case .unsigned(let n)?: force = n > 0
        case .negative?: force = false
        case let other?: throw .wrongType(field: "force", expected: "boolean", found: other.kindName)
        }
        bootMode = try SMPFields(body).optionalUInt("boot_mode", max: UInt64(UInt8.max)).map { UInt8($0) }
    }

    public var body: CBORMap {
        var map: CBORMap = [:]
        map.append("force", ifPresent: force.map(CBORValue.bool))
        map.append("boot_mode", ifPresent: bootMode.map { CBORValue.unsigned(UInt64($0)) })
        return map
    }
}
