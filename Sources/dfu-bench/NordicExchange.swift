/// One thing that crossed the Nordic link during a transfer, as the client saw it, with when.
struct NordicExchange: Sendable {
    enum Kind: Sendable {
        /// A Control Point Write Request (`bytes` is the request).
        case request([UInt8])
        /// A Packet-characteristic Write Command of `size` bytes.
        case packet(size: Int)
        /// A Control Point notification: a response or a PRN receipt (`bytes` as received).
        case notification([UInt8])
    }

    let kind: Kind
    /// When the client issued the write, or when the notification reached it.
    let at: ContinuousClock.Instant

    var isNotification: Bool {
        if case .notification = kind { return true }
        return false
    }

    /// Value bytes of a write (request or packet); 0 for a notification.
    var writeSize: Int {
        switch kind {
        case .request(let bytes): return bytes.count
        case .packet(let size): return size
        case .notification: return 0
        }
    }

    /// Create of a data object (opcode 0x01, type 0x02): where the measured interval starts.
    var isCreateData: Bool {
        if case .request(let bytes) = kind { return bytes.count >= 2 && bytes[0] == 0x01 && bytes[1] == 0x02 }
        return false
    }
}
