import DFUCore
import DeviceSim

/// What the virtual device runs at the end of a run, read from its snapshot rather than taken from
/// the engine's word: a run completes only if the device itself holds the new image, confirmed.
enum DeviceVerdict: Sendable, Equatable {
    /// Slot 0 holds the new image (its SHA256 TLV and version) and the next boot will not revert it.
    case updated
    /// Slot 0 holds the image the device started with, confirmed; `rejectedAtBoot`: MCUboot refused
    /// a pending image at some boot.
    case keptPrevious(rejectedAtBoot: Bool)
    /// Anything else, described.
    case other(String)

    /// `newHash`/`newVersion`: the image flashed (its SHA256 TLV, as the device reports a slot);
    /// `previousHash`: what slot 0 held before the run.
    init(_ device: VirtualDevice, newHash: [UInt8], newVersion: ImageVersion, previousHash: [UInt8]?) {
        let bootloader = device.server.bootloader
        let rejected = device.boots.contains { if case .rejected = $0.outcome { true } else { false } }
        guard let running = bootloader.primaryImage else {
            self = .other("has no valid image in slot 0")
            return
        }
        if running.hash == newHash, running.version == newVersion {
            // After a test swap the trailer says `revert` until the image confirms itself.
            self = bootloader.swapType == .none
                ? .updated
                : .other("runs the new image unconfirmed (next boot: \(bootloader.swapType))")
        } else if running.hash == previousHash, bootloader.swapType == .none {
            self = .keptPrevious(rejectedAtBoot: rejected)
        } else {
            self = .other("runs \(running.versionString) (next boot: \(bootloader.swapType))")
        }
    }

    var text: String {
        switch self {
        case .updated: return "runs the new image, confirmed"
        case .keptPrevious(let rejected):
            return "runs its previous image" + (rejected ? " (MCUboot refused the new one)" : ", never refused the new one")
        case .other(let text): return text
        }
    }
}
