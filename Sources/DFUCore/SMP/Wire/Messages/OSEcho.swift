/// Echo (OS group, command 0): `{"d": text}` → `{"r": text}`. A liveness probe, and with a long
/// string a test of whether the device reassembles packets larger than one write. Zephyr serves it
/// for read and write; we send write, as smpclient does.
public struct OSEchoRequest: SMPRequest {
    public typealias Response = OSEchoResponse
    public static var group: SMPGroup { .os }
    public static var command: UInt8 { OSMgmtCommand.echo.rawValue }
    public static var op: SMPOp { .write }

    public var text: String

    public init(text: String) {
        self.text = text
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        text = try SMPFields(body).text("d")
    }

    public var body: CBORMap { ["d": .text(text)] }
}

public struct OSEchoResponse: SMPBody {
    public var text: String

    public init(text: String) {
        self.text = text
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        text = try SMPFields(body).text("r")
    }

    public var body: CBORMap { ["r": .text(text)] }
}
