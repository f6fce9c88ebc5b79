import DFUCore
import DeviceSim
import Synchronization

/// Reads the UDP server's events for the activation step a run kills `dfu` at (`KillPoint`), and
/// fires the switch as the device reaches it: the event is reported before the device acts on the
/// request, so the device still marks, resets or confirms, and the host is gone when it answers.
final class ActivationWatch: Sendable {
    private let point: KillPoint
    private let killSwitch: KillSwitch
    /// The device has begun a reset: an image-state write after it confirms, one before it marks.
    private let resetSeen = Mutex(false)

    init(_ point: KillPoint, killSwitch: KillSwitch) {
        self.point = point
        self.killSwitch = killSwitch
    }

    func observe(_ event: UDPServerEvent) {
        let afterReset = resetSeen.withLock { seen in
            defer { if case .rebooting = event { seen = true } }
            return seen
        }
        switch (point, event) {
        case (.uploaded, .uploadCompleted), (.resetting, .rebooting):
            killSwitch.fire()
        case (.marking, .received(_, _, let header?)) where Self.isImageStateWrite(header) && !afterReset:
            killSwitch.fire()
        case (.confirming, .received(_, _, let header?)) where Self.isImageStateWrite(header) && afterReset:
            killSwitch.fire()
        default:
            break
        }
    }

    /// `image state` written: the test mark before the reset, the confirmation after it.
    static func isImageStateWrite(_ header: SMPHeader) -> Bool {
        header.op == .write && header.group == .image && header.command == ImageMgmtCommand.state.rawValue
    }
}
