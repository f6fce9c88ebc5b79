/// What an image of an NCS zip is for, as its manifest entry says: the core (from `board`: an
/// nRF5340's network core image has its own board, `…/cpunet` (cmake/sysbuild/zip.cmake), or
/// `…_cpunet` before hardware model v2), and for a direct-XIP build which slot the variant runs from.
/// A `type: mcuboot` entry (a bootloader update) has a `slot` too, but it names the bootloader's own
/// slot (Android's ZipPackage numbers such entries in manifest order when they have none).
public struct NCSImageRole: Sendable, Equatable, CustomStringConvertible {
    public enum Core: String, Sendable {
        case application = "application core"
        case network = "network core"
        /// A board without a cpu suffix: a single-core SoC (nRF52, nRF54L) or a part the name does not tell.
        case unnamed
    }

    public enum DirectXIPSlot: Sendable, Equatable {
        /// `slot` even: image * 2 (zip.cmake); `secondary`: image * 2 + 1.
        case primary(slot: Int)
        case secondary(slot: Int)
    }

    public var core: Core
    /// The manifest's `type` (application, mcuboot).
    public var type: String
    /// Applications only: the slot a direct-XIP variant was linked for.
    public var directXIP: DirectXIPSlot?
    /// `type: mcuboot` only: the bootloader slot the image is for.
    public var bootloaderSlot: Int?

    public init(_ file: NCSManifestFile) {
        let board = file.board.lowercased()
        if board.hasSuffix("cpunet") {
            core = .network
        } else if board.hasSuffix("cpuapp") || board.hasSuffix("cpuapp/ns") || board.hasSuffix("cpuapp_ns") {
            core = .application
        } else {
            core = .unnamed
        }
        type = file.type
        let isBootloader = file.type == "mcuboot"
        directXIP = isBootloader ? nil : file.slot.map { $0 % 2 == 0 ? .primary(slot: $0) : .secondary(slot: $0) }
        bootloaderSlot = isBootloader ? file.slot : nil
    }

    /// `network core`, `application`, `application core, direct-XIP variant for the secondary slot (slot 1)`.
    public var description: String {
        var text: String
        switch core {
        case .application, .network: text = core.rawValue
        case .unnamed: text = type == "mcuboot" ? "MCUboot (bootloader)" : type
        }
        switch directXIP {
        case .primary(let slot): text += ", direct-XIP variant for the primary slot (slot \(slot))"
        case .secondary(let slot): text += ", direct-XIP variant for the secondary slot (slot \(slot))"
        case nil: break
        }
        if let bootloaderSlot { text += ", for bootloader slot \(bootloaderSlot)" }
        return text
    }
}
