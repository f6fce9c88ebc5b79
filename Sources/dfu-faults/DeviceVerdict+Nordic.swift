import DeviceSim

extension DeviceVerdict {
    /// The verdict on the virtual nRF52, from its own state: `.updated` only when it runs the
    /// application (not its bootloader) and that application is `newVersion`, as its settings page
    /// says too; `.keptPrevious` when it runs `previousVersion`. Nordic has no test boot, so
    /// `rejectedAtBoot` is always false here.
    init(nordic device: NordicVirtualDevice, newVersion: UInt32, previousVersion: UInt32) {
        switch device.mode {
        case .application(let application):
            if application.version == newVersion, device.applicationVersion == newVersion {
                self = .updated
            } else if application.version == previousVersion, device.applicationVersion == previousVersion {
                self = .keptPrevious(rejectedAtBoot: false)
            } else {
                self = .other("runs app_version \(application.version) (settings: \(device.applicationVersion))")
            }
        case .bootloader:
            self = .other("is still in its bootloader (settings: app_version \(device.applicationVersion))")
        case .booting:
            self = .other("is still booting")
        }
    }
}
