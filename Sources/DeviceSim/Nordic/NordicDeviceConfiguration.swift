import DFUCore
import Transport

/// One simulated nRF52 with an nRF5 SDK application and secure bootloader: its address, battery,
/// the bootloader's build, and how long a reset takes.
public struct NordicDeviceConfiguration: Sendable {
    /// The application's address; the bootloader's is `NordicAddress.bootloader(for:)` (or as
    /// `bootloaderAddressing` says), or the same with the with-bonds buttonless service.
    public var identity: PeerIdentity
    public var bootloader: NordicBootloaderConfiguration
    public var batteryLevel: UInt8
    /// From a reset to advertising again (bootloader start, and the bank copy of an update).
    public var bootTime: Duration
    /// The application's buttonless service.
    public var buttonless: NordicButtonlessVariant
    /// How the application answers buttonless set-name (without bonds only).
    public var setName: NordicSetNameSupport = .supported
    /// Where the bootloader advertises (without bonds; with bonds it keeps the address).
    public var bootloaderAddressing: NordicBootloaderAddressing = .incremented
    /// Control Point answers the bootloader damages (`cp_fault=`).
    public var notificationFaults: [NordicNotificationFault] = []

    public init(identity: PeerIdentity, bootloader: NordicBootloaderConfiguration, batteryLevel: UInt8 = 80,
                bootTime: Duration = .milliseconds(300), buttonless: NordicButtonlessVariant = .withoutBonds) {
        self.identity = identity
        self.bootloader = bootloader
        self.batteryLevel = batteryLevel
        self.bootTime = bootTime
        self.buttonless = buttonless
    }
}
