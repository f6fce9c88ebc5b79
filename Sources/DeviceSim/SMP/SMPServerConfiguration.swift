/// The Kconfig of the simulated Zephyr MCUmgr server: what the transport can take and how the
/// image group behaves.
public struct SMPServerConfiguration: Sendable, Hashable {
    /// How writes become request packets.
    public enum Framing: Sendable, Hashable, CustomStringConvertible {
        /// `CONFIG_MCUMGR_TRANSPORT_BT_REASSEMBLY=y`: a packet may span consecutive writes; the first
        /// must hold the 8-byte header (smp_reassembly.c).
        case reassembly
        /// Bluetooth without reassembly: each write is one buffer and must hold whole packets; a write
        /// larger than a buffer is refused (and, being a Write Command, silently lost).
        case onePacketPerWrite
        /// UDP: each datagram is one buffer; a longer datagram is cut at the buffer size, so the
        /// packet inside it comes up short and is answered `rc 9` (ECORRUPT).
        case datagram

        public var description: String {
            switch self {
            case .reassembly: return "reassembly"
            case .onePacketPerWrite: return "one packet per write"
            case .datagram: return "datagram"
            }
        }
    }

    /// `CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE`: the largest packet (header + CBOR) in either direction.
    /// The default is Nordic's recommended fast-DFU value, five full 495-byte writes.
    public var bufferSize: Int
    /// `CONFIG_MCUMGR_TRANSPORT_NETBUF_COUNT`: buffers shared by requests being collected or queued
    /// and responses being built.
    public var bufferCount: Int
    public var framing: Framing
    /// `CONFIG_IMG_ENABLE_IMAGE_CHECK`: the last upload reply says whether the slot matches `sha`,
    /// and an upload whose data already sits in the slot is answered as finished at once.
    public var imageCheck: Bool
    /// `CONFIG_MCUMGR_GRP_OS_RESET_MS`: from the reset reply to the reboot.
    public var resetDelay: Duration
    /// `CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE`: a reset's `boot_mode` is kept for the bootloader
    /// (retention), so `boot_mode: 1` reboots into MCUboot's serial recovery where MCUboot reads it
    /// (`BOOT_SERIAL_BOOT_MODE`, the serial sim).
    public var resetBootMode = false
    /// CPU time per request on top of flash time (CBOR decoding, bookkeeping). Zero by default so
    /// the device's ceiling is its flash rate, the figure the benchmark reports.
    public var requestOverhead: Duration
    /// What updates the device: MCUboot slots (the model), or one of the kinds dfu only
    /// recognises: MCUboot in firmware loader mode (bootloader info reports mode 7) or a SUIT
    /// device (it answers SMP group 66).
    public var kind: DeviceKind = .mcuboot

    public enum DeviceKind: String, Sendable, Hashable, CaseIterable {
        case mcuboot
        case firmwareLoader = "firmware-loader"
        case suit
    }

    public init(bufferSize: Int = 2475, bufferCount: Int = 4, framing: Framing = .reassembly,
                imageCheck: Bool = false, resetDelay: Duration = .milliseconds(250),
                requestOverhead: Duration = .zero) {
        self.bufferSize = bufferSize
        self.bufferCount = bufferCount
        self.framing = framing
        self.imageCheck = imageCheck
        self.resetDelay = resetDelay
        self.requestOverhead = requestOverhead
    }
}
