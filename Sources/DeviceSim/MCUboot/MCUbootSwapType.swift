import DFUCore

/// What MCUboot will do at the next boot, as `boot_swap_type` derives it from the slot trailers
/// (BOOT_SWAP_TYPE_*). This one value stands for the trailer state the model keeps: the secondary's
/// magic and swap info (test, permanent) and the primary's copy-done/image-ok flags (revert).
public enum MCUbootSwapType: Sendable, Hashable, CustomStringConvertible {
    /// Boot the primary slot as it is.
    case none
    /// Swap the secondary in; revert at the boot after unless the new image confirms itself.
    case test
    /// Swap the secondary in for good.
    case permanent
    /// The running image was swapped in for a test and is not confirmed: swap back at the next boot.
    case revert

    public var description: String {
        switch self {
        case .none: return "none"
        case .test: return "test"
        case .permanent: return "permanent"
        case .revert: return "revert"
        }
    }
}

/// How the bootloader installs images (its upgrade strategy). The two swap modes do the same thing
/// as far as SMP can see; they differ in the mode number bootloader info reports and in the flash
/// they reserve. Overwrite-only copies the new image over the old one and cannot revert; it is the
/// only mode in which MCUboot decompresses compressed images (sdk-mcuboot `boot/zephyr/Kconfig`:
/// BOOT_DECOMPRESSION_SUPPORT depends on BOOT_UPGRADE_ONLY). Direct-XIP does not move images:
/// MCUboot runs the newest valid image from whichever slot holds it (design.md "Equal slots
/// (direct-xip)"), with or without the revert mechanism (`MCUBOOT_DIRECT_XIP_REVERT`, "Revert
/// mechanism in direct-xip and ram-load mode").
public enum MCUbootSwapMode: Sendable, Hashable, CustomStringConvertible {
    /// Swap through a scratch area (`MCUBOOT_SWAP_USING_SCRATCH`); mode 1.
    case usingScratch
    /// Swap by moving the primary up one sector (`MCUBOOT_SWAP_USING_MOVE`, the Zephyr default);
    /// mode 3, "swap without scratch".
    case withoutScratch
    /// Copy the secondary over the primary (`MCUBOOT_OVERWRITE_ONLY`); mode 2.
    case overwriteOnly
    /// `MCUBOOT_DIRECT_XIP`; mode 4.
    case directXIP
    /// `MCUBOOT_DIRECT_XIP` with `MCUBOOT_DIRECT_XIP_REVERT`; mode 5.
    case directXIPWithRevert
    /// `MCUBOOT_RAM_LOAD`: like direct-XIP, but the image is copied into RAM and runs there
    /// (design.md "RAM loading"); mode 6.
    case ramLoad
    /// `MCUBOOT_RAM_LOAD` with `MCUBOOT_RAM_LOAD_REVERT`; mode 6 too.
    case ramLoadWithRevert

    /// The `swap` option's spellings, for `sim:swap=…` and `dfu sim --swap` (direct-XIP is chosen
    /// with `bootloader=direct-xip[-revert]`).
    public init?(optionValue: String) {
        switch optionValue.lowercased() {
        case "move": self = .withoutScratch
        case "scratch": self = .usingScratch
        case "overwrite": self = .overwriteOnly
        default: return nil
        }
    }

    public var optionValue: String {
        switch self {
        case .withoutScratch: return "move"
        case .usingScratch: return "scratch"
        case .overwriteOnly: return "overwrite"
        case .directXIP: return "direct-xip"
        case .directXIPWithRevert: return "direct-xip-revert"
        case .ramLoad: return "ram-load"
        case .ramLoadWithRevert: return "ram-load-revert"
        }
    }

    /// The number SMP bootloader info reports for `{"query": "mode"}`.
    public var reportedMode: MCUbootMode {
        switch self {
        case .usingScratch: return .swapUsingScratch
        case .withoutScratch: return .swapWithoutScratch
        case .overwriteOnly: return .overwriteOnly
        case .directXIP: return .directXIP
        case .directXIPWithRevert: return .directXIPWithRevert
        case .ramLoad, .ramLoadWithRevert: return .ramLoad
        }
    }

    public var isDirectXIP: Bool { self == .directXIP || self == .directXIPWithRevert }
    public var isRAMLoad: Bool { self == .ramLoad || self == .ramLoadWithRevert }
    /// Direct-XIP and RAM-load: the slots are equal, nothing is moved, the newest image runs.
    public var hasEqualSlots: Bool { isDirectXIP || isRAMLoad }
    /// The revert mechanism of the equal-slot modes (image_ok / copy_done in each slot's trailer).
    var revertsUnconfirmed: Bool { self == .directXIPWithRevert || self == .ramLoadWithRevert }

    /// Pages at the end of each slot the bootloader keeps for itself: the trailer, plus the spare
    /// sector swap-using-move needs to shift the primary image.
    var reservedPages: Int {
        switch self {
        case .usingScratch, .overwriteOnly, .directXIP, .directXIPWithRevert, .ramLoad, .ramLoadWithRevert: return 1
        case .withoutScratch: return 2
        }
    }

    public var description: String {
        switch self {
        case .usingScratch: return "swap using scratch"
        case .withoutScratch: return "swap without scratch"
        case .overwriteOnly: return "overwrite only"
        case .directXIP: return "direct-XIP"
        case .directXIPWithRevert: return "direct-XIP with revert"
        case .ramLoad: return "RAM load"
        case .ramLoadWithRevert: return "RAM load with revert"
        }
    }
}
