import Synchronization

/// Decides when a `batch-kill` run kills `dfu batch`: at the first upload request that takes a
/// device past the drawn share of its image while at least one other device is done (the batch
/// wrote its `device` line with `"result":"ok"`), so that at the kill some devices are done, one
/// is mid-transfer and the rest (with six devices, two at a time) have not started. Then it says
/// where each device was. With a `rerunKill`, the batch run again is killed in its turn once the
/// devices have been sent `rerunThreshold` more image bytes (it is carrying one on or flashing one
/// anew).
final class BatchKillTrigger: Sendable {
    /// Where one device was when the batch died.
    enum Progress: Sendable, Equatable {
        case notStarted
        /// Some of its image sent, not all.
        case midTransfer(sent: Int)
        /// All of its image sent, the batch not yet done with it (activation, reset, confirmation).
        case activating
        case done
    }

    private struct State {
        var sent: [Int]
        var done: Set<Int> = []
        var atKill: [Progress]?
        /// The device of each `udp:` address the plan names, to read the batch's `device` lines.
        var names: [String: Int] = [:]
        /// Upload sessions each device began after the kill: the rerun did not pick up what it held.
        var freshUploads: [Int]
        var killed = false
        /// Image bytes sent to all devices since the killed batch ended.
        var sentSinceKill = 0
        var rerunKilled = false
    }

    private let state: Mutex<State>
    private let threshold: Int
    private let imageBytes: Int
    private let killSwitch: KillSwitch
    private let rerunKill: (switch: KillSwitch, threshold: Int)?

    init(devices: Int, threshold: Int, imageBytes: Int, killSwitch: KillSwitch, rerunKill: (switch: KillSwitch, threshold: Int)? = nil) {
        state = Mutex(State(sent: Array(repeating: 0, count: devices), freshUploads: Array(repeating: 0, count: devices)))
        self.threshold = threshold
        self.imageBytes = imageBytes
        self.killSwitch = killSwitch
        self.rerunKill = rerunKill
    }

    /// The plan's device texts, in device order (known once the relays are bound).
    func name(_ devices: [String]) {
        let names = Dictionary(devices.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
        state.withLock { $0.names = names }
    }

    /// The killed batch is reaped: what follows belongs to the rerun.
    func killedBatchEnded() {
        state.withLock { $0.killed = true }
    }

    /// Device `index` began an upload session.
    func uploadStarted(on index: Int) {
        state.withLock { state in
            if state.killed, state.freshUploads.indices.contains(index) { state.freshUploads[index] += 1 }
        }
    }

    /// Devices mid-transfer at the kill on which the rerun began no new upload session: it took up
    /// the device's own offset.
    var pickedUp: Int {
        state.withLock { state in
            (state.atKill ?? []).enumerated().filter { device, progress in
                if case .midTransfer = progress { return state.freshUploads[device] == 0 }
                return false
            }.count
        }
    }

    /// The relay of device `index` passed an upload request with `bytes` of image data.
    func sent(_ bytes: Int, to index: Int) {
        let fireRerun = state.withLock { state -> Bool in
            guard state.killed, let rerunKill, !state.rerunKilled else { return false }
            state.sentSinceKill += bytes
            guard state.sentSinceKill >= rerunKill.threshold else { return false }
            state.rerunKilled = true
            return true
        }
        if fireRerun { rerunKill?.switch.fire() }
        let fire = state.withLock { state -> Bool in
            guard state.sent.indices.contains(index) else { return false }
            state.sent[index] += bytes
            let sent = state.sent[index]
            guard state.atKill == nil, !state.done.isEmpty, sent >= threshold, sent < imageBytes else { return false }
            state.atKill = state.sent.indices.map { device in
                if state.done.contains(device) { return .done }
                switch state.sent[device] {
                case 0: return .notStarted
                case imageBytes...: return .activating
                case let partial: return .midTransfer(sent: partial)
                }
            }
            return true
        }
        if fire { killSwitch.fire() }
    }

    /// One line of the batch's stdout: a `device` line that says `ok` marks its device done.
    func line(_ text: String) {
        guard let fields = ChildAttempt.fields(text), fields["event"] as? String == "device",
              fields["result"] as? String == "ok", let device = fields["device"] as? String else { return }
        state.withLock { state in
            if let index = state.names[device] { state.done.insert(index) }
        }
    }

    /// Whether the rerun's kill fired.
    var rerunKillFired: Bool { state.withLock { $0.rerunKilled } }
    /// Each device's progress when the switch fired; nil when it never did.
    var atKill: [Progress]? { state.withLock { $0.atKill } }
    /// Image bytes sent to each device so far, over both batches.
    var sent: [Int] { state.withLock { $0.sent } }
}
