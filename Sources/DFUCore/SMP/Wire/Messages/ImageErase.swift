/// Image erase (image group, command 5, op write): erase `slot`, by default the non-active one.
/// Synchronous on the device (slow) and it ends any upload session. Success is an empty body.
public struct ImageEraseRequest: SMPRequest {
    public typealias Response = SMPEmptyBody
    public static var group: SMPGroup { .image }
    public static var command: UInt8 { ImageMgmtCommand.erase.rawValue }
    public static var op: SMPOp { .write }

    public var slot: UInt64?

    public init(slot: UInt64? = nil) {
        self.slot = slot
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        slot = try SMPFields(body).optionalUInt("slot")
    }

    public var body: CBORMap {
        var map: CBORMap = [:]
        map.append("slot", ifPresent: slot.map(CBORValue.unsigned))
        return map
    }
}
