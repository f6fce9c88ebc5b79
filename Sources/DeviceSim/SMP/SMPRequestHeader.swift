import DFUCore

/// A request header as Zephyr's `smp_read_hdr` takes it: copied, not validated. Reserved bits are
/// ignored and any op value is kept, because the server answers an op other than read or write with
/// `rc 8` rather than dropping it; `DFUCore.SMPHeader` refuses such headers, as a client should.
struct SMPRequestHeader: Sendable, Hashable {
    static let size = SMPHeader.size

    let op: UInt8
    /// The two version bits: 0 = v1, 1 = v2, 2 and 3 reserved (answered with `rc 13`).
    let version: UInt8
    let length: Int
    let group: SMPGroup
    let sequence: UInt8
    let command: UInt8

    /// `bytes` must hold at least 8 bytes; the caller checks.
    init(_ bytes: ArraySlice<UInt8>) {
        let b = Array(bytes.prefix(Self.size))
        op = b[0] & 0x07
        version = (b[0] >> 3) & 0x03
        length = Int(b[2]) << 8 | Int(b[3])
        group = SMPGroup(rawValue: UInt16(b[4]) << 8 | UInt16(b[5]))
        sequence = b[6]
        command = b[7]
    }

    var isReadOrWrite: Bool { op == SMPOp.read.rawValue || op == SMPOp.write.rawValue }

    /// `smp_make_rsp_hdr`: read → read response, anything else → write response; the request's
    /// version capped at v2; same group, sequence and command.
    func responseHeader() -> SMPHeader {
        SMPHeader(version: version >= 1 ? .v2 : .v1,
                  op: op == SMPOp.read.rawValue ? .readResponse : .writeResponse,
                  length: 0, group: group, sequence: sequence, command: command)
    }
}
