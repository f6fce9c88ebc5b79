/// The user's choices for one update. Defaults are what a careful user would pick.
public struct UpdateOptions: Sendable, Equatable {
    public var mode: ActivationMode = .testConfirm
    /// Refuse when the device's battery is below this level (percent). Battery Service absent → warning.
    public var minimumBattery: Int = 30
    /// Allow an image whose version is not newer than the running one.
    public var allowDowngrade: Bool = false
    /// SMP: `upgrade: true` in the first upload packet, so the device itself refuses an image that
    /// is not newer than the one it runs (smp_group_1.rst; Zephyr compares major.minor.revision,
    /// and the build too with CONFIG_MCUMGR_GRP_IMG_VERSION_CMP_USE_BUILD_NUMBER). dfu's own
    /// version precondition is then left to the device, whose rule is the one that counts.
    public var requireNewer: Bool = false
    /// Allow the update while this computer runs on battery.
    public var allowHostOnBattery: Bool = false
    /// The version text the device must report after the update (Device Information firmware
    /// revision for Nordic; the image version for SMP); nil: not checked beyond the protocol's own.
    public var expectedVersion: String?
    /// Accept a Nordic package whose images are not signed although a key was given.
    public var allowUnsigned: Bool = false
    /// Nordic Secure DFU Packet Receipt Notification value for data objects (0: off, the link's
    /// back-pressure paces the writes).
    public var packetReceiptNotification: UInt16 = 0
    /// Nordic Secure DFU: the name the bootloader is to advertise (buttonless set-name, 1–20 bytes),
    /// so that it can be found by it; nil: the device's default (`DfuTarg`).
    public var bootloaderName: String?
    /// Nordic Secure DFU: the name an earlier run gave this device's bootloader (its journal), so a
    /// device that run left in DFU mode under an address of its own is found by it. Only looked
    /// for, never given to the device.
    public var earlierBootloaderName: String?
    /// The version the device stated before an earlier, unfinished run of this same update file
    /// began (its journal). A Nordic application that now states the package's version, and no
    /// longer this one, was updated by that run (cut off as the bootloader took the last Execute).
    public var earlierVersionBefore: String?
    /// SMP: the image index to update (`image` in the first upload packet; on an nRF5340 image 1
    /// is the network core). Nil leaves the field out: the device's default, image 0.
    public var imageIndex: UInt64?
    /// SMP: the device takes the update in MCUboot's serial recovery (`MCUbootRecovery`); nil: its
    /// application takes it into the secondary slot.
    public var serialRecovery: MCUbootRecovery?
    /// Stop once every check before the transfer has passed (image, key, connection and pairing,
    /// device state, preconditions), with `.dryRunPassed` saying what the real run would do:
    /// no byte of the image is sent and nothing is marked, confirmed or reset.
    public var dryRun = false
    public var deadlines = Deadlines()

    public init() {}

    /// How long each waiting stage may take. The first upload chunk waits for the slot erase.
    public struct Deadlines: Sendable, Equatable {
        public var connect: Duration = .seconds(20)
        public var request: Duration = .seconds(10)
        public var firstChunk: Duration = .seconds(40)
        /// When set, the first chunk may take this long per started MiB of the image, if that is
        /// more than `firstChunk`: Zephyr erases the image's length (page-rounded) and the trailer
        /// before it answers the first packet (zephyr_img_mgmt.c `img_mgmt_erase_image_data`), and
        /// external flash erases far slower than internal. Nil when the user gave a deadline.
        public var firstChunkPerMiB: Duration? = .seconds(40)
        public var chunk: Duration = .seconds(5)
        public var lastChunk: Duration = .seconds(20)
        /// Reset to reconnect: MCUboot may swap for tens of seconds on a real device.
        public var reboot: Duration = .seconds(60)
        public init() {}

        /// The first chunk's deadline for an image of `bytes`: `firstChunk`, or `firstChunkPerMiB`
        /// for each started MiB when that is longer (40 s up to 1 MiB, 80 s up to 2 MiB, …).
        public func firstChunk(forImageOf bytes: Int) -> Duration {
            guard let perMiB = firstChunkPerMiB else { return firstChunk }
            let mebibytes = max(1, (max(0, bytes) + (1 << 20) - 1) >> 20)
            return max(firstChunk, perMiB * mebibytes)
        }
    }
}
