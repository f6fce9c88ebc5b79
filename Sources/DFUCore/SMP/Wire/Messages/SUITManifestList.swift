/// SUIT manifest list (SMP group 66, command 0, op read): asked only to tell whether the device
/// updates with SUIT (nRF54H20 with the SUIT bootloader) rather than MCUboot slots. Group 66 is
/// Nordic's SUIT management (`GROUP_SUIT = 66` and `ID_MANIFEST_LIST = 0` in
/// NordicSemiconductor/Android-nRF-Connect-Device-Manager mcumgr-core McuManager.java and
/// managers/SUITManager.java); a device without the group answers `rc 8` (ENOTSUP).
public struct SUITManifestListRequest: SMPRequest {
    public typealias Response = SMPEmptyBody
    public static var group: SMPGroup { .suit }
    public static var command: UInt8 { 0 }
    public static var op: SMPOp { .read }

    public init() {}
    public init(body: CBORMap) throws(SMPBodyError) {}
    public var body: CBORMap { [:] }
}
