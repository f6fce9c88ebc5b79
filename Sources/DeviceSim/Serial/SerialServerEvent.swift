import DFUCore

/// What the serial server did, for `dfu sim`'s log (one line each).
public enum SerialServerEvent: Sendable, Hashable, CustomStringConvertible {
    case received(size: Int, header: SMPHeader?)
    case replied(size: Int, header: SMPHeader?)
    /// Bytes from the client the decoder threw away (line noise, a garbled frame).
    case inputDropped(String)
    case ignoredWhileDown(size: Int)
    case dropped(SMPDrop)
    case garbled(replyNumber: Int)
    case portVanished
    case portBack
    case portFailed(String)
    case uploadStarted(length: Int)
    case uploadCompleted(length: Int)
    case uploadLost(offset: Int, length: Int)
    case rebooting(BootReport)
    case online(running: SlotImage?, boot: Int)
    case faultInjected(SimFault)
    /// Bytes the application ignored: it has no SMP transport on this port (`app-silent`).
    case ignoredBySilentApplication(size: Int)
    /// MCUboot does not start the application but stays in serial recovery, and why.
    case enteringRecovery(SerialRecoveryEntry)
    /// MCUboot's serial recovery reads the line (after the boot that entered it).
    case recoveryOnline(boot: Int)
    case recoveryUploadStarted(image: Int, length: Int)
    case recoveryUploadCompleted(image: Int, length: Int, version: ImageVersion?)
    /// The recovery's reset command: MCUboot boots again.
    case rebootingFromRecovery(BootReport)

    /// Whether `dfu sim` prints it without `--verbose`.
    public var isLifecycle: Bool {
        switch self {
        case .uploadStarted, .uploadCompleted, .uploadLost, .rebooting, .online, .faultInjected, .portVanished, .portBack,
             .portFailed, .garbled, .enteringRecovery, .recoveryOnline, .recoveryUploadStarted, .recoveryUploadCompleted,
             .rebootingFromRecovery:
            return true
        case .received, .replied, .inputDropped, .ignoredWhileDown, .dropped, .ignoredBySilentApplication:
            return false
        }
    }

    public var description: String {
        switch self {
        case .received(let size, let header): return "← \(size) bytes" + (header.map { ": \($0)" } ?? " (no valid SMP header)")
        case .replied(let size, let header): return "→ \(size) bytes" + (header.map { ": \($0)" } ?? "")
        case .inputDropped(let reason): return "input dropped: \(reason)"
        case .ignoredWhileDown(let size): return "\(size) bytes ignored: the device is resetting"
        case .dropped(let drop): return "request dropped: \(drop)"
        case .garbled(let number): return "garbled reply \(number) on the wire"
        case .portVanished: return "port vanished (the USB device resets)"
        case .portBack: return "port back"
        case .portFailed(let reason): return "cannot open the port again: \(reason)"
        case .uploadStarted(let length): return "upload started: \(length) bytes"
        case .uploadCompleted(let length): return "upload complete: \(length) bytes"
        case .uploadLost(let offset, let length): return "upload session lost at \(offset) of \(length) bytes"
        case .rebooting(let report): return "resetting: \(report)"
        case .online(let running, let boot): return "up again (boot \(boot)), running \(running.map(\.version.description) ?? "no valid image")"
        case .faultInjected(let fault): return "fault injected: \(fault)"
        case .ignoredBySilentApplication(let size): return "\(size) bytes ignored: the application has no SMP transport on this port"
        case .enteringRecovery(let entry): return entry.description
        case .recoveryOnline(let boot): return "up again (boot \(boot)) in MCUboot serial recovery"
        case .recoveryUploadStarted(let image, let length):
            return "MCUboot serial recovery: upload into the primary slot\(Self.ofImage(image)) started: \(length) bytes"
        case .recoveryUploadCompleted(let image, let length, let version):
            return "MCUboot serial recovery: upload into the primary slot\(Self.ofImage(image)) complete: \(length) bytes"
                + (version.map { ", version \($0)" } ?? "")
        case .rebootingFromRecovery(let report): return "MCUboot serial recovery resets: \(report)"
        }
    }

    private static func ofImage(_ image: Int) -> String { image == 0 ? "" : " of image \(image)" }
}

