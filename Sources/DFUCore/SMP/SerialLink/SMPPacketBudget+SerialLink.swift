import Transport

extension SMPPacketBudget {
    /// The budget a session starts with on `link`: one write per packet, except on a serial line,
    /// where writes do not bound packets but the device's buffer does (less the framing's share),
    /// assumed at Zephyr's default until the device reports its `buf_size`.
    init(startingOn link: any Link) {
        if let serial = link as? SMPSerialLink {
            self.init(maxWriteSize: link.parameters.maxWriteWithoutResponse, bufferOverhead: serial.framing.bufferOverhead,
                      assumedBufferSize: SMPStreamFraming.assumedBufferSize)
        } else {
            self.init(maxWriteSize: link.parameters.maxWriteWithoutResponse)
        }
    }
}
