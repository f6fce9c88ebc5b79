/// OS/application info (OS group, command 7, op read; optional `CONFIG_MCUMGR_GRP_OS_INFO`), like
/// `uname`: `{"format"?: text}` → `{"output": text}`. Used only for diagnostics.
public struct OSInfoRequest: SMPRequest {
    public typealias Response = OSInfoResponse
    public static var group: SMPGroup { .os }
    public static var command: UInt8 { OSMgmtCommand.info.rawValue }
    public static var op: SMPOp { .read }

    /// uname-style letters, e.g. "a" for everything; absent means the device's default.
    public var format: String?

    public init(format: String? = nil) {
        self.format = format
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        format = try SMPFields(body).optionalText("format")
    }

    public var body: CBORMap {
        var map: CBORMap = [:]
        map.append("format", ifPresent: format.map(CBORValue.text))
        return map
    }
}

public struct OSInfoResponse: SMPBody {
    public var output: String

    public init(output: String) {
        self.output = output
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        output = try SMPFields(body).text("output")
    }

    public var body: CBORMap { ["output": .text(output)] }
}
