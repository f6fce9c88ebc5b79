import DFUCore
import Transport

/// Everything that makes one virtual device: who it is, what it runs, its bootloader and SMP
/// server build, its battery, and the faults it will inject. `SimOptions` builds one from
/// `sim:key=value` text; tests may build one directly.
public struct DeviceConfiguration: Sendable {
    /// The identity a connector finds it by (an address-like string).
    public var identity: PeerIdentity
    /// The version of the synthetic image the device starts with.
    public var runningVersion: ImageVersion
    /// The bootloader's (only) key.
    public var bootloaderKey: PublicKey
    /// The key MCUboot decrypts encrypted images with; nil refuses them.
    public var decryptionKey: ImageDecryptionKey?
    public var slotSize: Int
    public var pageSize: Int
    public var flashTiming: FlashTiming
    public var swapMode: MCUbootSwapMode
    public var startupTime: Duration
    public var server: SMPServerConfiguration
    /// Battery level in percent, 0…100.
    public var batteryLevel: UInt8
    public var faults: [SimFault]
    /// Updatable images (`CONFIG_MCUMGR_GRP_IMG_UPDATABLE_IMAGE_NUMBER`): 1, or 2 for an
    /// nRF5340-like device whose image 1 is the network core. Every image runs `runningVersion`.
    public var imageCount: Int

    public init(identity: PeerIdentity, runningVersion: ImageVersion, bootloaderKey: PublicKey,
                decryptionKey: ImageDecryptionKey? = nil, slotSize: Int = 0x60000, pageSize: Int = FlashSlot.defaultPageSize,
                flashTiming: FlashTiming = .nRF52840, swapMode: MCUbootSwapMode = .withoutScratch,
                startupTime: Duration = .milliseconds(300), server: SMPServerConfiguration = SMPServerConfiguration(),
                batteryLevel: UInt8 = 80, faults: [SimFault] = [], imageCount: Int = 1) {
        self.identity = identity
        self.runningVersion = runningVersion
        self.bootloaderKey = bootloaderKey
        self.decryptionKey = decryptionKey
        self.slotSize = slotSize
        self.pageSize = pageSize
        self.flashTiming = flashTiming
        self.swapMode = swapMode
        self.startupTime = startupTime
        self.server = server
        self.batteryLevel = batteryLevel
        self.faults = faults
        self.imageCount = imageCount
    }
}

/// Why a virtual device cannot be built from its configuration.
public enum DeviceSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    case image(ImageError)
    case bootloader(BootloaderSetupError)

    public var description: String {
        switch self {
        case .image(let error): return "cannot build the running image: \(error)"
        case .bootloader(let error): return "cannot set up the bootloader: \(error)"
        }
    }
}
