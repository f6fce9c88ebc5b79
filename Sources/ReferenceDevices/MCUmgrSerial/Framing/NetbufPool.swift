extension MCUmgrSerial {
    /// smp.c's `pkt_pool`: `CONFIG_MCUMGR_TRANSPORT_NETBUF_COUNT` buffers of
    /// `CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE` bytes shared by requests being reassembled, requests
    /// queued for the SMP work queue and responses. `smp_packet_alloc` never waits (K_NO_WAIT).
    struct NetbufPool: Equatable {
        let count: Int
        let size: Int
        private(set) var inUse = 0

        init(count: Int, size: Int) {
            self.count = count
            self.size = size
        }

        mutating func allocate() -> Bool {
            guard inUse < count else { return false }
            inUse += 1
            return true
        }

        mutating func free() {
            inUse = max(0, inUse - 1)
        }
    }
}
