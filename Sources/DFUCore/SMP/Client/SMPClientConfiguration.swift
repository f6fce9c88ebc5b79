extension SMPClientCore {
    /// The client's fixed choices; the packet budget is separate because it changes with each link.
    public struct Configuration: Sendable, Hashable {
        /// The SMP version requests start in. v2 is what current Zephyr and smpclient use.
        public var version: SMPVersion
        /// Whether to switch version and send the request again once, when the device refuses it
        /// with `MGMT_ERR_UNSUPPORTED_TOO_NEW` (13: go to v1) or `..._TOO_OLD` (12: go to v2), as
        /// Zephyr answers versions it was built without. Off: the refusal is reported as it came.
        public var negotiatesVersion: Bool
        /// Largest response (header + body) we reassemble. A header announcing more fails at once,
        /// before any byte is buffered. The default is far above any Zephyr `NETBUF_SIZE` in use
        /// (2475 on BLE, 2048 on UDP) yet keeps a lying header from making us hold 64 KiB.
        public var maxResponseSize: Int
        /// Depth, item and size limits for response bodies.
        public var bodyLimits: CBORDecoder.Limits
        /// Until the device first answers one of this client's requests, a reply that answers none
        /// of them is a leftover of an earlier client on the same line and is dropped, not a
        /// violation: a serial port keeps no connection, so a run that ended early (exit 7 with
        /// chunks in flight) leaves the device answering into the port the next run opens
        /// (the device answers in order, so every leftover comes before the first answer of ours).
        public var dropsLeftoverReplies = false

        public init(version: SMPVersion = .v2, negotiatesVersion: Bool = true, maxResponseSize: Int = 16 * 1024,
                    bodyLimits: CBORDecoder.Limits = .default) {
            self.version = version
            self.negotiatesVersion = negotiatesVersion
            self.maxResponseSize = maxResponseSize
            self.bodyLimits = bodyLimits
        }
    }
}
