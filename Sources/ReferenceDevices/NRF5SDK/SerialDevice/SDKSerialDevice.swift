import Transport

/// An nRF5 SDK device with a serial-only secure bootloader (UART or USB CDC ACM), modelled from the
/// SDK sources alone, as a sans-I/O `SerialLineDevice`. At power-on it runs the bootloader (as with
/// the DFU button held); an update over SLIP (init packet, then firmware) is validated by the same
/// request handler, flash and checks as `SDKDevice`'s BLE bootloader, and the last Execute resets it
/// into the new application.
///
///     var device = SDKSerialDevice(configuration: SDKSerialDeviceConfiguration(variant: .uart, publicKey: key))
///     let out = device.receive([0x09, 0x01, 0xC0], now: t)   // Ping 1
///     // [.transmit([0x60, 0x09, 0x01, 0x01, 0xC0])]
///
/// The serial transport's rules are in `SerialDFUTransport`; the main loop's in
/// `SDKSerialDevice+MainLoop.swift`.
public struct SDKSerialDevice: SerialLineDevice {
    /// The image that runs.
    enum Image: Sendable {
        case bootloader(SerialBootloaderRun)
        case application(reentersBootloaderAt: MonotonicInstant?)
        case booting(until: MonotonicInstant)
        /// Only while a method holds the bootloader's state, so that its buffers are not copied.
        case modifying
    }

    public let configuration: SDKSerialDeviceConfiguration
    var image: Image
    var flash: FlashStore
    /// GPREGRET's `BOOTLOADER_DFU_START`.
    var dfuFlag = false
    public internal(set) var counters = SDKSerialDeviceCounters()
    /// The version of the application that runs (nil while it does not).
    public internal(set) var runningApplicationVersion: UInt32?

    /// The device just powered on at `now`.
    public init(configuration: SDKSerialDeviceConfiguration, poweredOnAt now: MonotonicInstant = .zero) {
        self.configuration = configuration
        let bootloader = configuration.bootloader
        let bank0 = configuration.applicationInstalled
            ? DFUSettings.Bank(code: .validApplication, imageSize: bootloader.installedApplicationSize)
            : DFUSettings.Bank()
        flash = FlashStore(settings: DFUSettings(applicationVersion: bootloader.installedApplicationVersion,
                                                 bootloaderVersion: bootloader.bootloaderVersion, bank0: bank0),
                           backend: .nvmc)
        image = .modifying
        dfuFlag = configuration.enterBootloaderAtPowerOn
        _ = boot(at: now)
    }

    public var mode: SDKDeviceMode {
        switch image {
        case .application: return .application
        case .bootloader: return .bootloader
        case .booting, .modifying: return .booting
        }
    }

    /// Whether the host sees the port now: the bootloader always has it, the application when
    /// `applicationHasPort`; nothing has while the device boots. (At power-on no `attach` comes: the
    /// port is there from the start if this says so.)
    public var portPresent: Bool {
        switch image {
        case .bootloader: return true
        case .application: return configuration.applicationHasPort
        case .booting, .modifying: return false
        }
    }

    /// `s_dfu_settings.app_version` as stored.
    public var storedApplicationVersion: UInt32 { flash.settings.applicationVersion }

    /// `s_dfu_settings.bootloader_version` as stored.
    public var bootloaderVersion: UInt32 { flash.settings.bootloaderVersion }

    /// Whether bank 0 holds a valid application.
    public var hasValidApplication: Bool { flash.settings.bank0.code == .validApplication }

    public var nextDeadline: MonotonicInstant? {
        switch image {
        case .booting(let until): return until
        case .application(let at): return at
        case .bootloader(let run): return run.nextDeadline
        case .modifying: return nil
        }
    }

    public mutating func receive(_ bytes: [UInt8], now: MonotonicInstant) -> [SerialLineOutput] {
        var out = advance(to: now)
        switch image {
        case .bootloader:
            out += receiveInBootloader(bytes, now: now)
        case .application:
            counters.bytesLost[.application, default: 0] += bytes.count
        case .booting, .modifying:
            counters.bytesLost[.resetting, default: 0] += bytes.count
        }
        return out + advance(to: now)
    }

    public mutating func advance(to now: MonotonicInstant) -> [SerialLineOutput] {
        var out: [SerialLineOutput] = []
        while true {
            switch image {
            case .booting(let until) where until <= now:
                out += boot(at: until)
            case .application(let at?) where at <= now:
                out.append(.note("the application resets into the bootloader"))
                out += reset(at: at, intoBootloader: true)
            case .bootloader(var run):
                image = .modifying
                if let resetAt = runMainLoop(&run, to: now, &out) {
                    out += reset(at: resetAt, intoBootloader: false)
                } else {
                    image = .bootloader(run)
                    return out
                }
            default:
                return out
            }
        }
    }
}
