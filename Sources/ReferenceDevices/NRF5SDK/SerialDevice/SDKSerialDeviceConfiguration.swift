import DFUCore

/// Everything an `SDKSerialDevice` is built from: the bootloader (keys, versions, flash layout,
/// policy: an `SDKDeviceConfiguration`, whose BLE fields are not used) and the serial transport.
/// `init(variant:publicKey:)` gives the SDK 17.0 example for each variant:
/// - UART: `examples/dfu/secure_bootloader/pca10040_uart` (nRF52832), bootloader at 0x78000, 0x6000
///   bytes (its linker script), an S132 7.2.0 installed (FWID 0x0101, ends at 0x26000);
/// - USB: `…/pca10056_usb` (nRF52840), bootloader at 0xF4000, 0xA000 bytes, an S140 7.2.0 installed
///   (FWID 0x0100, ends at 0x27000).
///
/// Both keep the sdk_config.h policy the BLE model has (signed application updates, downgrade
/// prevention, same version accepted, 12288 bytes of application data, 120 s inactivity timeout).
/// The SoftDevices are the model's choice: the bootloaders look for one at run time (`SD_PRESENT`).
public struct SDKSerialDeviceConfiguration: Sendable {
    /// The bootloader and its flash. Its `bootTime` is the time from a reset until the next image's
    /// port is back (for USB, enumeration included); its `inactivityTimeout` restarts on
    /// Create(command) and executed data objects.
    public var bootloader: SDKDeviceConfiguration
    public var variant: SDKSerialVariant
    /// `NRF_DFU_SERIAL_UART_RX_BUFFERS` / `NRF_DFU_SERIAL_USB_RX_BUFFERS`: 3 in every serial
    /// example's sdk_config.h (SDK 15.0 and 17.0). One is always the decoder's.
    public var receiveBuffers = 3
    /// nrf_bootloader.c `SCHED_QUEUE_SIZE`: requests waiting for the main loop; a frame that finds
    /// the queue full is lost (`nrf_dfu_req_handler_on_req` fails; the transport's ASSERT is empty in
    /// a release build).
    public var schedulerQueueSize = 32
    /// `UART_DEFAULT_CONFIG_BAUDRATE` 30801920 = 115200 baud (8N1, 10 bits a byte on the wire). The
    /// device's transmitter is busy this long per byte it sends. USB CDC ACM has no baud rate: the
    /// model uses the same number for it.
    public var baudRate = 115_200
    /// Bank 0 holds a valid application at power-on (`installedApplicationVersion` and `…Size` of
    /// `bootloader`); otherwise it is empty.
    public var applicationInstalled = true
    /// The bootloader is entered at power-on, as with the DFU button held
    /// (`NRF_BL_DFU_ENTER_METHOD_BUTTON`). Without it the device starts the application when there
    /// is a valid one.
    public var enterBootloaderAtPowerOn = true
    /// A reset removes the port from the host until the next image enumerates (USB CDC ACM), rather
    /// than leaving a silent line (UART). For the glue: `detach` and `attach` come either way.
    public var portVanishesOnReset: Bool
    /// The application has a port of its own (a UART line always; for USB, an application with a
    /// CDC ACM interface). Without one no `attach` follows the application's boot.
    public var applicationHasPort = true
    public var application = SDKSerialApplication.silent
    public var timing = SDKSerialTiming.instant

    public init(variant: SDKSerialVariant, publicKey: PublicKey) {
        var bootloader = SDKDeviceConfiguration(publicKey: publicKey)
        switch variant {
        case .uart:
            bootloader.chip = .nRF52832
            bootloader.softDeviceFWID = 0x0101
            bootloader.applicationStart = 0x26000
            bootloader.bootloaderStart = 0x78000
            bootloader.bootloaderSize = 0x6000
        case .usb:
            bootloader.chip = .nRF52840
            bootloader.softDeviceFWID = 0x0100
            bootloader.applicationStart = 0x27000
            bootloader.bootloaderStart = 0xF4000
            bootloader.bootloaderSize = 0xA000
        }
        bootloader.softDevicePresent = true
        bootloader.softDeviceVersion = 7_002_000
        self.bootloader = bootloader
        self.variant = variant
        portVanishesOnReset = variant == .usb
    }

    /// How long the transmitter takes over `count` bytes.
    func transmitTime(_ count: Int) -> Duration {
        guard baudRate > 0 else { return .zero }
        return .nanoseconds(Int64(count) * 10 * 1_000_000_000 / Int64(baudRate))
    }
}
