import DFUCore
import DeviceSim
import Synchronization

/// The kills of one `dfu flash` process-death run, in order: the first `dfu` dies at `points[0]`,
/// the command that takes the update up at `points[1]` (when there is one), and so on; the command
/// after the last kill runs to its end. Every point is watched from outside the process, where it
/// is exact: the image bytes sent (`sent`, counted on the wire or as the bootloader receives them)
/// or the device's own events (`observe`), which it reports before it acts on the request, so the
/// device still marks, resets or confirms and the host is gone when it answers.
///
/// A kill fires only while its child is aimed at: what the device does between two children (the
/// requests a killed `dfu` left in flight, a reset it was sent) kills nobody.
final class KillSchedule: Sendable {
    private struct State {
        /// Image bytes sent over the whole run.
        var sent = 0
        /// The kill whose child runs now, its child, and its transfer point in bytes sent.
        var aimed: Int?
        var target: DFUChild?
        var threshold: Int?
        var fired: Set<Int> = []
        /// The device has begun a reset: an image-state write after it confirms, one before it marks.
        var resetSeen = false
    }

    let points: [KillPoint]
    private let totalBytes: Int
    private let uncounted: Int
    private let state = Mutex(State())

    /// `totalBytes`: what one whole transfer sends; `uncounted`: the part of it before which no
    /// share is counted (the Nordic init packet: shares are of the firmware).
    init(_ points: [KillPoint], totalBytes: Int, uncounted: Int = 0) {
        self.points = points
        self.totalBytes = totalBytes
        self.uncounted = uncounted
    }

    /// Aims kill `index` at `child`, which has just started (so the kill has a process to hit). A transfer point is that share of
    /// what is left to send from here: of the whole image for the first kill, of the rest after it.
    func aim(_ index: Int, at child: DFUChild) {
        guard points.indices.contains(index) else { return }
        state.withLock { state in
            state.aimed = index
            state.target = child
            state.threshold = nil
            if case .transfer(let share) = points[index] {
                state.threshold = Self.threshold(share: share, sent: state.sent, totalBytes: totalBytes, uncounted: uncounted)
            }
        }
    }

    /// The aimed child has ended: nothing fires until the next `aim`.
    func disarm() {
        state.withLock { state in
            state.aimed = nil
            state.target = nil
            state.threshold = nil
        }
    }

    /// The byte count at which a transfer point with `share` fires, `sent` bytes into the run: that
    /// share of what is left past `uncounted` (at least one byte on).
    static func threshold(share: Double, sent: Int, totalBytes: Int, uncounted: Int) -> Int {
        let base = max(sent, uncounted)
        return base + max(1, Int(share * Double(totalBytes - base)))
    }

    /// Image bytes sent (an upload request's data, a Write Object's).
    func sent(_ bytes: Int) {
        let target: DFUChild? = state.withLock { state in
            let before = state.sent
            state.sent += bytes
            guard let threshold = state.threshold, before < threshold, state.sent >= threshold else { return nil }
            return Self.fire(&state)
        }
        target?.kill()
    }

    /// What the device has just been asked or done: fires an activation step's kill as the device
    /// reaches it.
    func observe(_ step: DeviceStep) {
        let target: DFUChild? = state.withLock { state in
            let afterReset = state.resetSeen
            if step == .rebooting { state.resetSeen = true }
            guard let index = state.aimed, Self.reaches(points[index], step, afterReset: afterReset) else { return nil }
            return Self.fire(&state)
        }
        target?.kill()
    }

    /// The host is about to write a Nordic bootloader's last Execute: fires a `lastExecute` point.
    func lastExecute() {
        let target: DFUChild? = state.withLock { state in
            guard let index = state.aimed, points[index] == .lastExecute else { return nil }
            return Self.fire(&state)
        }
        target?.kill()
    }

    /// Whether kill `index` fired.
    func hasFired(_ index: Int) -> Bool { state.withLock { $0.fired.contains(index) } }

    /// The aimed kill fires, once: its child, to be killed outside the lock.
    private static func fire(_ state: inout State) -> DFUChild? {
        guard let index = state.aimed, !state.fired.contains(index) else { return nil }
        state.fired.insert(index)
        return state.target
    }

    /// Whether `step` is the activation step `point` (never a transfer point).
    static func reaches(_ point: KillPoint, _ step: DeviceStep, afterReset: Bool) -> Bool {
        switch (point, step) {
        case (.uploaded, .uploadCompleted), (.resetting, .rebooting), (.outage, .fault(.outage)), (.linkDrop, .fault(.disconnect)):
            return true
        case (.marking, .request(let header)):
            return isImageStateWrite(header) && !afterReset
        case (.confirming, .request(let header)):
            return isImageStateWrite(header) && afterReset
        default:
            return false
        }
    }

    /// `image state` written: the test mark before the reset, the confirmation after it.
    static func isImageStateWrite(_ header: SMPHeader) -> Bool {
        header.op == .write && header.group == .image && header.command == ImageMgmtCommand.state.rawValue
    }
}
