import DFUCore

/// One request as MCUboot's `boot_serial_input` takes it (`struct nmgr_hdr`): the header is read
/// in place, not validated beyond what that function checks, and the answer goes out under the
/// same header with the op raised by one (`boot_serial_output`).
struct RecoveryRequest: Sendable, Hashable {
    /// The 8 header bytes as received.
    let header: [UInt8]
    let body: ArraySlice<UInt8>

    /// nil when `boot_serial_input` ignores the packet: shorter than a header, an op that is not
    /// read (0) or write (2), or a header length below the body's (a longer one is accepted).
    init?(_ packet: [UInt8]) {
        guard packet.count >= SMPHeader.size, let first = packet.first else { return nil }
        let op = first & 0x07
        guard op == SMPOp.read.rawValue || op == SMPOp.write.rawValue else { return nil }
        let length = Int(packet[2]) << 8 | Int(packet[3])
        guard length >= packet.count - SMPHeader.size else { return nil }
        header = Array(packet[0 ..< SMPHeader.size])
        body = packet[SMPHeader.size...]
    }

    var op: UInt8 { header[0] & 0x07 }
    var isRead: Bool { op == SMPOp.read.rawValue }
    var group: UInt16 { UInt16(header[4]) << 8 | UInt16(header[5]) }
    var command: UInt8 { header[7] }

    /// `boot_serial_output`: the request's header with `nh_op` one higher (the version and reserved
    /// bits of that byte kept), flags 0 and the body's length, then the body (zcbor without
    /// `ZCBOR_CANONICAL`: indefinite-length maps and arrays).
    func answer(_ body: CBORMap) -> [UInt8] {
        let encoded = Self.encoder.encode(body)
        var packet = header
        packet[0] = (header[0] & ~0x07) | ((op + 1) & 0x07)
        packet[1] = 0
        packet[2] = UInt8(truncatingIfNeeded: encoded.count >> 8)
        packet[3] = UInt8(truncatingIfNeeded: encoded.count)
        return packet + encoded
    }

    /// `bs_rc_rsp`: `{"rc": rc}`.
    func answer(rc: Int64) -> [UInt8] {
        var body = CBORMap()
        body.append("rc", .int(rc))
        return answer(body)
    }

    static let encoder = CBOREncoder(containerLength: .indefinite)
}
