/// How large the SMP packets we send may be, and how they are cut into writes.
///
/// Two independent facts decide it (smp-mcuboot.md §1):
/// - the link's largest write without response (ATT MTU − 3), which changes with every connection;
/// - the device's side: whether it reassembles one packet from several writes
///   (`CONFIG_MCUMGR_TRANSPORT_BT_REASSEMBLY`) and its SMP buffer size (`buf_size` from the MCUmgr
///   parameters, header and CBOR included).
///
/// With reassembly a packet may be up to `buf_size` and is split into consecutive writes; without
/// it each write is parsed as a whole packet, so a packet must fit one write. The two Kconfigs are
/// independent, so a reported `buf_size` alone does not mean the device reassembles: the caller says
/// so explicitly (after probing, e.g. with an oversize echo).
public struct SMPPacketBudget: Sendable, Hashable, CustomStringConvertible {
    /// The link's largest write without response; at least the 8-byte header.
    public var maxWriteSize: Int
    /// The device's `buf_size`, when it reported one.
    public var deviceBufferSize: Int?
    /// Whether the device collects one packet from several writes.
    public var deviceReassembles: Bool
    /// What the transport's framing holds of each device buffer besides the packet: 4 over a serial
    /// console (the length and the CRC are decoded into the same buffer), else 0.
    public var bufferOverhead: Int
    /// The buffer to size packets for while the device has not said (`buf_size` unknown): the
    /// transport's documented default where writes do not bound packets (a serial line), else nil.
    public var assumedBufferSize: Int?

    public init(maxWriteSize: Int, deviceBufferSize: Int? = nil, deviceReassembles: Bool = false,
                bufferOverhead: Int = 0, assumedBufferSize: Int? = nil) {
        self.maxWriteSize = maxWriteSize
        self.deviceBufferSize = deviceBufferSize
        self.deviceReassembles = deviceReassembles
        self.bufferOverhead = bufferOverhead
        self.assumedBufferSize = assumedBufferSize
    }

    /// The largest packet (header + CBOR) we may send. With reassembly that is `buf_size` (one
    /// write when the device did not say); without, one write, and never more than `buf_size`;
    /// less the framing's share of the buffer.
    public var maxPacketSize: Int {
        let buffer = (deviceBufferSize ?? assumedBufferSize).map { $0 - bufferOverhead }
        if deviceReassembles, let buffer { return buffer }
        return min(maxWriteSize, buffer ?? .max)
    }

    /// Whether one packet may span several writes.
    public var splitsPackets: Bool { maxPacketSize > maxWriteSize }

    /// Nil when usable; else why not. The first write must hold the whole header (Zephyr's
    /// reassembly drops a packet whose first fragment is shorter), and a packet needs a header and
    /// at least a one-byte body.
    public var problem: String? {
        if maxWriteSize < SMPHeader.size {
            return "writes of \(maxWriteSize) bytes cannot carry the 8-byte SMP header"
        }
        if maxPacketSize <= SMPHeader.size {
            return "packets of \(maxPacketSize) bytes leave no room for an SMP body"
        }
        return nil
    }

    public var description: String {
        splitsPackets
            ? "packets up to \(maxPacketSize) bytes in writes of \(maxWriteSize)"
            : "one packet per write of up to \(maxPacketSize) bytes"
    }
}
