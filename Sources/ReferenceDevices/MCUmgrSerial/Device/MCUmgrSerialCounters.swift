/// What a test can assert on. Application and recovery counts are kept apart where they differ.
public struct MCUmgrSerialCounters: Sendable, Hashable {
    // MARK: Application transport
    /// SMP packets the application's transport reassembled (CRC good, or raw and complete).
    public var packetsDecoded = 0
    /// Lines the UART driver ignored because every RX buffer was taken (`uart_mcumgr_rx_byte`).
    public var linesDroppedNoBuffer = 0
    /// Lines longer than an RX buffer, ignored up to their newline.
    public var linesDroppedTooLong = 0
    /// Lines (or raw bytes) lost because no netbuf was free for reassembly (`smp_packet_alloc`).
    public var fragmentsDroppedNoNetbuf = 0
    /// Packets whose CRC-16 did not check (application and recovery).
    public var crcFailures = 0
    /// Other reassembly failures by reason (bad base64, no room, length mismatch, …).
    public var framesDropped: [String: Int] = [:]
    /// Raw packets thrown away by an input timeout (application and recovery).
    public var rawInputTimeouts = 0
    /// SMP packets the application ran (one response each, or one per message inside).
    public var requestsProcessed = 0
    /// Bytes the device transmitted in SMP responses (both images).
    public var bytesTransmitted = 0

    // MARK: MCUboot serial recovery
    /// Bytes serial_adapter.c threw away because no line buffer was free.
    public var recoveryBytesDroppedNoBuffer = 0
    /// Lines longer than `BOOT_MAX_LINE_INPUT_LEN`, cut to that length.
    public var recoveryLinesTruncated = 0
    /// Packets recovery decoded and handed to `boot_serial_input`.
    public var recoveryPacketsDecoded = 0
    /// Commands recovery answered.
    public var recoveryCommandsProcessed = 0

    // MARK: Lifecycle
    /// Every boot: power-on, resets from either image.
    public var boots = 0
    /// Boots that ended in serial recovery.
    public var recoveryEntries = 0
    /// Swaps MCUboot performed (test, perm or revert).
    public var swaps = 0
    /// Of those, reverts.
    public var reverts = 0
    /// Secondary images MCUboot erased because they failed validation.
    public var invalidSecondaryErased = 0

    public init() {}
}

/// Which image runs.
public enum MCUmgrSerialMode: Sendable, Hashable {
    case application
    case recovery
    /// Between a reset and the next image listening.
    case booting
    /// MCUboot found nothing to boot and stopped (`FIH_PANIC`): silent until power-cycled.
    case halted
}
