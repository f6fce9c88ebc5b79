import Transport

/// An nRF5 SDK device: a buttonless-DFU application and the secure BLE bootloader, modelled from
/// the SDK sources alone, as a sans-I/O value. Feed it events with the time; carry out the actions
/// it returns, in order; call `handle(.tick, now:)` at `nextDeadline`.
///
///     var device = SDKDevice(configuration: SDKDeviceConfiguration(publicKey: key))
///     var actions = device.handle(.connected(device.configuration.applicationIdentity), now: t)
///     actions = device.handle(.subscribed(SDKGATT.buttonless), now: t)
///     actions = device.handle(.write(SDKGATT.buttonless, [0x01], withResponse: true), now: t)
///     // [.notify([0x20, 0x01, 0x01], on: …), .stopAdvertising(app), .dropLink(.reset)]
///
/// Each rule names the SDK function it comes from; `SDKVersion` lists what differs between SDKs.
public struct SDKDevice: Sendable {
    /// The image that runs.
    enum Image: Sendable {
        case application(ButtonlessApplication)
        case bootloader(BootloaderRun)
        case booting(until: MonotonicInstant)
    }

    /// The bootloader's RAM: request handler, BLE transport, inactivity timer.
    struct BootloaderRun: Sendable {
        var core: BootloaderCore
        var transport = BootloaderTransport()
        var inactivityDeadline: MonotonicInstant?
    }

    /// The connection the device holds.
    struct Connection: Sendable {
        var identity: PeerIdentity
        /// CCCDs the central enabled on this connection (the bootloader keeps no system attributes
        /// between connections without bonds).
        var subscriptions: Set<CharacteristicID> = []
        /// The device decided to drop the link: later writes are ignored.
        var closing = false
        /// The link belonged to an image that has since reset: its end changes nothing.
        var endedByReset = false
    }

    public let configuration: SDKDeviceConfiguration
    var image: Image
    var flash: FlashStore
    /// GPREGRET's `BOOTLOADER_DFU_START`: set by the buttonless service before its reset.
    var dfuFlag = false
    var connection: Connection?
    var insideObjectCutFired = false
    /// What the device advertises now (nil while booting).
    public internal(set) var advertisement: SDKAdvertisement?
    public internal(set) var counters = SDKDeviceCounters()
    /// The version of the application that runs or last ran.
    public internal(set) var runningApplicationVersion: UInt32

    /// The device running its application, advertising under `applicationIdentity`.
    public init(configuration: SDKDeviceConfiguration) {
        self.configuration = configuration
        let settings = DFUSettings(
            applicationVersion: configuration.installedApplicationVersion,
            bootloaderVersion: configuration.bootloaderVersion,
            bank0: DFUSettings.Bank(code: .validApplication, imageSize: configuration.installedApplicationSize))
        flash = FlashStore(settings: settings)
        image = .application(ButtonlessApplication(support: configuration.buttonless))
        runningApplicationVersion = configuration.installedApplicationVersion
        advertisement = applicationAdvertisement
    }

    public var mode: SDKDeviceMode {
        switch image {
        case .application: return .application
        case .bootloader: return .bootloader
        case .booting: return .booting
        }
    }

    /// The name the bootloader advertises (or will, when entered): set-name's, else
    /// `NRF_DFU_BLE_ADV_NAME` (nrf_dfu_ble.c `gap_params_init`).
    public var bootloaderName: String { flash.bootloaderName ?? configuration.defaultBootloaderName }

    /// `s_dfu_settings.bootloader_version` as stored.
    public var bootloaderVersion: UInt32 { flash.settings.bootloaderVersion }

    /// The GATT layout of the running image (empty while booting).
    public var gattServices: [GATTService] {
        switch image {
        case .application: return SDKGATT.applicationServices
        case .bootloader: return SDKGATT.bootloaderServices
        case .booting: return []
        }
    }

    /// When `handle(.tick, now:)` is next due: the end of a boot or the inactivity timeout.
    public var nextDeadline: MonotonicInstant? {
        switch image {
        case .booting(let until): return until
        case .bootloader(let run): return run.inactivityDeadline
        case .application: return nil
        }
    }

    /// A Read Request: Battery Level and Firmware Revision String (the running version in decimal)
    /// in the application; nothing else is readable.
    public func read(_ characteristic: CharacteristicID) -> Result<[UInt8], ATTError> {
        guard case .application = image else { return .failure(.readNotPermitted) }
        switch characteristic {
        case SDKGATT.batteryLevel: return .success([configuration.batteryLevel])
        case SDKGATT.firmwareRevision: return .success(Array(String(runningApplicationVersion).utf8))
        default: return .failure(.readNotPermitted)
        }
    }

    public mutating func handle(_ event: SDKDeviceEvent, now: MonotonicInstant) -> [SDKDeviceAction] {
        switch event {
        case .connected(let identity):
            // A link of an image that has reset may still be closing; the new image's replaces it.
            guard connection.map({ $0.endedByReset }) ?? true, advertisement?.identity == identity else {
                return [.dropLink(.notAdvertising)]
            }
            connection = Connection(identity: identity)
            return []
        case .subscribed(let characteristic):
            connection?.subscriptions.insert(characteristic)
            return []
        case .write(let characteristic, let value, let withResponse):
            guard let open = connection, !open.closing else { return [] }
            switch image {
            case .application: return applicationWrite(characteristic, value, withResponse: withResponse, now: now)
            case .bootloader: return bootloaderWrite(characteristic, value, withResponse: withResponse, now: now)
            case .booting: return []
            }
        case .disconnected:
            return disconnected()
        case .tick:
            return tick(now: now)
        }
    }

    private mutating func disconnected() -> [SDKDeviceAction] {
        guard let ended = connection else { return [] }
        connection = nil
        guard !ended.endedByReset, case .bootloader(var run) = image else { return [] }
        // nrf_dfu_ble.c: advertising restarts (the connector makes the device connectable again);
        // the transport deactivation reaches nrf_bootloader.c `dfu_observer`.
        if !configuration.sdkVersion.keepsProgressOnLinkLoss {
            run.core.reloadSettings(from: flash)
            image = .bootloader(run)
        }
        return []
    }

    private mutating func tick(now: MonotonicInstant) -> [SDKDeviceAction] {
        switch image {
        case .booting(let until) where until <= now:
            return boot(now: now)
        case .bootloader(let run):
            // nrf_bootloader.c `inactivity_timeout`: reset without storing RAM progress.
            guard let deadline = run.inactivityDeadline, deadline <= now else { return [] }
            return reset(now: now, intoBootloader: false)
        default:
            return []
        }
    }

    func isSubscribed(_ characteristic: CharacteristicID) -> Bool {
        connection?.subscriptions.contains(characteristic) ?? false
    }

    var applicationAdvertisement: SDKAdvertisement {
        SDKAdvertisement(identity: configuration.applicationIdentity, name: configuration.applicationName,
                         serviceUUIDs: [SDKGATT.dfuService])
    }
}
