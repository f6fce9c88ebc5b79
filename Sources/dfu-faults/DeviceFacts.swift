import DFUCore
import DeviceSim

/// What the invariants read from a device at the end of a run: which image it runs and whether
/// anything is pending for its next boot. Protocol-neutral, from either device model.
struct DeviceFacts: Sendable, Equatable {
    enum Image: Sendable, Equatable {
        /// The image it ran before the run.
        case previous
        /// The image the run flashed.
        case new
        /// Some other image, described.
        case other(String)
        /// Nothing it can boot or is running now, described.
        case none(String)
    }

    let image: Image
    /// Nothing pending for the next boot: an SMP device's trailer says no swap (a test image not
    /// yet confirmed says `revert`); an nRF52's settings page names the application it runs.
    let confirmed: Bool

    init(image: Image, confirmed: Bool) {
        self.image = image
        self.confirmed = confirmed
    }

    /// From an SMP device's snapshot; the hashes are SHA256 TLVs, as the device reports slots.
    init(_ device: VirtualDevice, newHash: [UInt8], newVersion: ImageVersion, previousHash: [UInt8]?) {
        let bootloader = device.server.bootloader
        confirmed = bootloader.swapType == .none
        guard let running = bootloader.primaryImage else {
            image = .none("no valid image in slot 0")
            return
        }
        if running.hash == newHash, running.version == newVersion {
            image = .new
        } else if running.hash == previousHash {
            image = .previous
        } else {
            image = .other(running.versionString)
        }
    }

    /// From the virtual nRF52, once it has finished starting.
    init(nordic device: NordicVirtualDevice, newVersion: UInt32, previousVersion: UInt32) {
        switch device.mode {
        case .application(let application):
            confirmed = application.version == device.applicationVersion
            switch application.version {
            case newVersion: image = .new
            case previousVersion: image = .previous
            default: image = .other("app_version \(application.version)")
            }
        case .bootloader:
            (image, confirmed) = (.none("in its bootloader"), false)
        case .booting:
            (image, confirmed) = (.none("still booting"), false)
        }
    }
}
