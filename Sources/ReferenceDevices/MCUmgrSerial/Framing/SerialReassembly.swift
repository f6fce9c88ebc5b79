extension MCUmgrSerial {
    /// serial_util.c `mcumgr_serial_process_frag` with its `struct mcumgr_serial_rx_ctxt`: the
    /// netbuf a request is reassembled in, taken from the pool on the first line that needs one and
    /// kept (even across lines that are not SMP) until a packet completes or is thrown away.
    struct SerialReassembly: Equatable {
        enum Outcome: Equatable {
            case packet([UInt8])
            case incomplete
            /// No netbuf could be taken: the fragment is lost.
            case noNetbuf
            /// The line does not start with `06 09` or `04 14` (or is shorter than 2 bytes).
            case notFrame
            case dropped(Drop)
        }

        enum Drop: Equatable {
            /// `04 14` with nothing reassembled yet.
            case continuationWithoutStart
            /// base64_decode failed: a bad character (-EINVAL).
            case invalidBase64
            /// base64_decode failed: the netbuf has no room left (-ENOMEM).
            case noRoom
            /// The first line decoded to fewer than the 2 length bytes.
            case missingLength
            /// More bytes than the length field announced.
            case longerThanLength
            case crcMismatch
            /// Raw: header length + 8 > netbuf size.
            case rawTooLong
            /// Raw: `nh_op` ≥ `MGMT_OP_COUNT`.
            case rawNotSMP
        }

        private(set) var holdsNetbuf = false
        /// `nb->data … nb->data + nb->len`.
        private var data: [UInt8] = []
        /// Bytes pulled from the front (`net_buf_pull_be16` of the length field).
        private var headroom = 0
        /// `rx_ctxt->pkt_len`: kept across packets, as the C struct keeps it.
        private var packetLength = 0

        /// The console (SMP over console) branch.
        mutating func console(_ fragment: [UInt8], pool: inout NetbufPool) -> Outcome {
            // The newest serial_util.c calls net_buf_reset before checking the allocation for NULL
            // (a NULL dereference when the pool is empty); the model follows the older order.
            guard takeNetbuf(&pool) else { return .noNetbuf }
            guard fragment.count >= 2, let op = ByteReading.be16(fragment, at: 0) else { return .notFrame }
            switch op {
            case 0x0609:
                data = []
                headroom = 0
            case 0x0414:
                if data.isEmpty { return drop(.continuationWithoutStart, &pool) }
            default:
                return .notFrame
            }
            let tailroom = pool.size - headroom - data.count
            switch Base64.decode(fragment[2...], capacity: tailroom) {
            case .invalid: return drop(.invalidBase64, &pool)
            case .noRoom: return drop(.noRoom, &pool)
            case .bytes(let decoded): data += decoded
            }
            if op == 0x0609 {
                guard let length = ByteReading.be16(data, at: 0) else { return drop(.missingLength, &pool) }
                packetLength = Int(length)
                data.removeFirst(2)
                headroom += 2
            }
            if data.count < packetLength { return .incomplete }
            if data.count > packetLength { return drop(.longerThanLength, &pool) }
            guard CRC16.xmodem(data) == 0 else { return drop(.crcMismatch, &pool) }
            let packet = Array(data.dropLast(2))
            release()
            return .packet(packet)
        }

        /// The raw branch (`CONFIG_MCUMGR_TRANSPORT_SERIAL_HAS_RAW_BINARY_NON_SMP_OVER_CONSOLE`):
        /// bytes are appended; once the 8-byte header is in, the announced size decides.
        mutating func raw(_ fragment: [UInt8], pool: inout NetbufPool) -> Outcome {
            guard takeNetbuf(&pool) else { return .noNetbuf }
            data += fragment
            guard let header = SMPHeader(data) else { return .incomplete }
            let total = Int(header.length) + SMPHeader.size
            if total > pool.size { return drop(.rawTooLong, &pool) }
            if header.op >= SMPHeader.Op.count { return drop(.rawNotSMP, &pool) }
            if data.count < total { return .incomplete }
            if data.count > total { return drop(.longerThanLength, &pool) }
            let packet = data
            release()
            return .packet(packet)
        }

        /// Bytes reassembled so far (the raw input timeout looks at `nb->len`).
        var pendingCount: Int { data.count }

        /// `mcumgr_serial_free_rx_ctxt`: the netbuf goes back to the pool.
        mutating func discard(pool: inout NetbufPool) {
            if holdsNetbuf { pool.free() }
            release()
        }

        private mutating func takeNetbuf(_ pool: inout NetbufPool) -> Bool {
            if holdsNetbuf { return true }
            guard pool.allocate() else { return false }
            holdsNetbuf = true
            data = []
            headroom = 0
            return true
        }

        private mutating func drop(_ reason: Drop, _ pool: inout NetbufPool) -> Outcome {
            discard(pool: &pool)
            return .dropped(reason)
        }

        /// The netbuf leaves the context (handed to SMP, or freed by the caller of `discard`).
        private mutating func release() {
            holdsNetbuf = false
            data = []
            headroom = 0
        }
    }
}
