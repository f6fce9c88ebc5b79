import Transport

/// Everything an `MCUmgrSerialDevice` is built from. Each default is the firmware's Kconfig default
/// (named beside it) for a Zephyr application with `CONFIG_MCUMGR_TRANSPORT_UART` on an nRF52840
/// DK with MCUboot in a swap mode; the timing figures marked model-only are not in any source.
public struct MCUmgrSerialConfiguration: Sendable {
    /// How SMP packets travel on the line.
    public enum Framing: Sendable, Hashable {
        /// SMP over console: `06 09` / `04 14` lines, base64, length and CRC-16.
        case console
        /// Raw SMP packets (Zephyr `CONFIG_MCUMGR_TRANSPORT_RAW_UART` with
        /// `CONFIG_UART_MCUMGR_RAW_PROTOCOL`; MCUboot `CONFIG_BOOT_SERIAL_RAW_PROTOCOL`).
        case raw
    }

    /// Which thread decodes received lines and which runs SMP requests.
    public enum WorkQueues: Sendable, Hashable {
        /// Today's smp.c: requests run on the dedicated "mcumgr smp" work queue while lines are
        /// decoded on the system work queue, so a long flash write does not stop line decoding.
        case dedicatedSMPWorkQueue
        /// The older mcumgr (`zephyr_smp_rx_req` → `k_work_submit`): both on the system work queue,
        /// so lines wait behind a request being processed and the RX buffers fill.
        case systemWorkQueueOnly
    }

    /// How the device's serial port behaves across a reset.
    public enum Port: Sendable, Hashable {
        /// USB CDC ACM: the port vanishes from the host during a reset and enumerates again.
        case usbCDCACM
        /// A UART behind a USB bridge: the port stays, the line is silent during the reset.
        case uart
    }

    /// Text the device prints between frames, so clients can be tested against it.
    public struct Noise: Sendable, Hashable {
        /// A log line after every `every`-th SMP packet the application processes (0: never).
        public var every: Int
        public var line: String
        /// Printed by the application when it starts (Zephyr's boot banner), if any.
        public var bootBanner: String?

        public init(every: Int = 0, line: String = "[00:00:01.000,000] <inf> app: tick\r\n", bootBanner: String? = nil) {
            self.every = every
            self.line = line
            self.bootBanner = bootBanner
        }

        public static let none = Noise()
    }

    // MARK: Application transport (Zephyr)
    /// `CONFIG_MCUMGR_TRANSPORT_UART` (console) or `CONFIG_MCUMGR_TRANSPORT_RAW_UART` (raw).
    public var applicationFraming = Framing.console
    /// `CONFIG_UART_MCUMGR_RX_BUF_SIZE` (drivers/console/Kconfig): one line, `\n` included.
    public var uartRxBufferSize = 128
    /// `CONFIG_UART_MCUMGR_RX_BUF_COUNT`.
    public var uartRxBufferCount = 2
    /// `CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE` (transport/Kconfig, 384 unless UDP).
    public var netbufSize = 384
    /// `CONFIG_MCUMGR_TRANSPORT_NETBUF_COUNT` (4 unless UDP).
    public var netbufCount = 4
    /// `CONFIG_MCUMGR_TRANSPORT_RAW_UART_INPUT_TIMEOUT` (default n) and its `_TIME_MS` (3000):
    /// a partial raw packet is thrown away when the next byte arrives after this long.
    public var rawInputTimeout: Duration?
    public var workQueues = WorkQueues.dedicatedSMPWorkQueue

    // MARK: SMP (Zephyr)
    /// `CONFIG_MCUMGR_SMP_SUPPORT_ORIGINAL_PROTOCOL` (y): version-0 requests get group errors as "rc".
    public var supportOriginalProtocol = true
    /// `CONFIG_MCUMGR_SMP_LEGACY_RC_BEHAVIOUR` (n): successful upload/erase answers carry "rc": 0.
    public var legacyRCBehaviour = false
    /// `CONFIG_ZCBOR_CANONICAL` (n): definite-length maps in responses (both firmwares).
    public var canonicalCBOR = false
    /// `CONFIG_MCUMGR_GRP_OS_ECHO` (y).
    public var osEcho = true
    /// `CONFIG_MCUMGR_GRP_OS_MCUMGR_PARAMS` (n): the "MCUmgr parameters" command (0/6).
    public var osMCUmgrParameters = false
    /// `CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE` (n; needs `CONFIG_RETENTION_BOOT_MODE`): reset takes
    /// "boot_mode".
    public var osResetBootMode = false
    /// `CONFIG_MCUMGR_GRP_OS_RESET_MS` (250): from the reset command to the reset.
    public var osResetDelay: Duration = .milliseconds(250)
    /// `CONFIG_IMG_ENABLE_IMAGE_CHECK` (n): the last upload answer carries "match".
    public var imageCheck = false
    /// `CONFIG_IMG_ERASE_PROGRESSIVELY` (n): erase pages as the upload reaches them instead of
    /// the image's pages (and the trailer page) on the first chunk.
    public var imageEraseProgressively = false
    /// `CONFIG_MCUMGR_GRP_IMG_ALLOW_ERASE_PENDING` (n).
    public var allowErasePending = false

    // MARK: MCUboot serial recovery
    /// Serial recovery is built in (`CONFIG_MCUBOOT_SERIAL`).
    public var recoveryEnabled = true
    /// `CONFIG_BOOT_SERIAL_RAW_PROTOCOL` (n) selects `.raw`.
    public var recoveryFraming = Framing.console
    /// `CONFIG_BOOT_MAX_LINE_INPUT_LEN` (128).
    public var recoveryLineLength = 128
    /// `CONFIG_BOOT_LINE_BUFS` (8).
    public var recoveryLineBuffers = 8
    /// `CONFIG_BOOT_SERIAL_MAX_RECEIVE_SIZE` (1024) = `MCUBOOT_SERIAL_MAX_RECEIVE_SIZE`.
    public var recoveryMaxReceiveSize = 1024
    /// `CONFIG_BOOT_SERIAL_RAW_PROTOCOL_INPUT_TIMEOUT` (y) with `_MS` (3000).
    public var recoveryRawInputTimeout: Duration? = .milliseconds(3000)
    /// `CONFIG_BOOT_MGMT_ECHO` (n).
    public var recoveryEcho = false
    /// `CONFIG_BOOT_MGMT_MCUMGR_PARAMS` (n).
    public var recoveryMCUmgrParameters = false
    /// `CONFIG_BOOT_SERIAL_IMG_GRP_HASH` (y): image list entries carry "hash".
    public var recoveryImageHash = true
    /// `CONFIG_BOOT_SERIAL_IMG_GRP_IMAGE_STATE` (n): state flags in the list, and state write.
    public var recoveryImageState = false
    /// `CONFIG_BOOT_ERASE_PROGRESSIVELY` (y on Nordic SoCs): erase as the upload advances
    /// instead of the whole slot on the first chunk.
    public var recoveryEraseProgressively = true
    /// `CONFIG_BOOT_SERIAL_BOOT_MODE` (n): boot mode 1 (bootloader) in retention keeps MCUboot in
    /// serial recovery.
    public var recoveryOnBootMode = false
    /// `CONFIG_BOOT_SERIAL_NO_APPLICATION` (n): stay in recovery when no image is bootable
    /// (otherwise MCUboot stops, silent).
    public var recoveryWhenNoApplication = false

    // MARK: Flash (nRF52840, dts/common/nordic/nrf52840_partition.dtsi)
    /// `slot0_partition` size.
    public var primarySlotSize = 0x77000
    /// `slot1_partition` size.
    public var secondarySlotSize = 0x75000
    /// nRF52840 flash page (erase unit).
    public var flashPageSize = 4096
    /// `flash_area_align`: the flash write block (4 on nRF52840).
    public var flashWriteAlignment = 4
    /// Model-only (nRF52840 datasheet order of magnitude): programming speed.
    public var flashWriteBytesPerSecond = 100_000
    /// Model-only (nRF52840 datasheet order of magnitude): one page erase.
    public var flashPageEraseTime: Duration = .milliseconds(85)
    /// The MCUboot image in the primary slot at power-on (trailer erased: confirmed).
    public var initialImage: [UInt8]

    // MARK: Line and timing (model-only)
    public var port = Port.usbCDCACM
    /// Sets how long the device's blocking `uart_poll_out` takes per byte (10 bits per byte).
    public var baudRate = 115_200
    /// Decoding one received line (base64 and CRC) on the system work queue or in MCUboot's loop.
    public var lineDecodeTime: Duration = .microseconds(100)
    /// Running one SMP request, besides its flash work.
    public var requestTime: Duration = .microseconds(500)
    /// From a reset until the next image listens (MCUboot's checks and the application's start).
    public var bootTime: Duration = .milliseconds(300)
    /// Added to `bootTime` when MCUboot swaps the slots.
    public var swapTime: Duration = .seconds(2)
    public var noise = Noise.none

    public init(initialImage: [UInt8]) {
        self.initialImage = initialImage
    }

    /// Time the transmitter needs for `count` bytes at `baudRate`, 10 bits each.
    func transmitTime(_ count: Int) -> Duration {
        guard baudRate > 0 else { return .zero }
        return .nanoseconds(Int64(count) * 10 * 1_000_000_000 / Int64(baudRate))
    }

    func writeTime(_ count: Int) -> Duration {
        guard flashWriteBytesPerSecond > 0 else { return .zero }
        return .nanoseconds(Int64(count) * 1_000_000_000 / Int64(flashWriteBytesPerSecond))
    }

    func eraseTime(pages: Int) -> Duration { flashPageEraseTime * pages }
}
