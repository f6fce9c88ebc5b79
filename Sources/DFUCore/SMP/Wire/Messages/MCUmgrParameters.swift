/// MCUmgr parameters (OS group, command 6, op read; needs `CONFIG_MCUMGR_GRP_OS_MCUMGR_PARAMS`,
/// else `MCUmgrError.notSupported`). No parameters.
public struct MCUmgrParametersRequest: SMPRequest {
    public typealias Response = MCUmgrParametersResponse
    public static var group: SMPGroup { .os }
    public static var command: UInt8 { OSMgmtCommand.mcumgrParameters.rawValue }
    public static var op: SMPOp { .read }

    public init() {}
    public init(body: CBORMap) throws(SMPBodyError) {}
    public var body: CBORMap { [:] }
}

/// `{"buf_size", "buf_count"}`: the device's SMP buffer size (header + CBOR, the largest packet it
/// takes) and how many such buffers it has, shared by requests and responses — hence Nordic's
/// window of `buf_count − 1` requests in flight.
public struct MCUmgrParametersResponse: SMPBody {
    public var bufferSize: UInt64
    public var bufferCount: UInt64

    public init(bufferSize: UInt64, bufferCount: UInt64) {
        self.bufferSize = bufferSize
        self.bufferCount = bufferCount
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        let fields = SMPFields(body)
        bufferSize = try fields.uint("buf_size")
        bufferCount = try fields.uint("buf_count")
    }

    public var body: CBORMap {
        ["buf_size": .unsigned(bufferSize), "buf_count": .unsigned(bufferCount)]
    }
}
