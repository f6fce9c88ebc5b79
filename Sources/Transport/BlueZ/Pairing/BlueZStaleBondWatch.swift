import Synchronization
import Transport

/// Watches one Connect to a device bluetoothd holds a bond for. When the device lost its bond (a
/// factory image), bluetoothd 5.66 still asks for an encrypted ATT channel because it has an LTK
/// (device.c `device_connect_le`: `BT_IO_SEC_MEDIUM` when `le_state.paired`); the device has no
/// key, the controller's encryption fails, the kernel drops the link, and `att_connect_cb` answers
/// Connect with `le-connection-abort-by-local` (or success, if the socket error was ECONNABORTED,
/// followed by a disconnection). Paired and Bonded stay true. What tells it from a controller's
/// spurious abort (no link at all) is that Connected went true in between.
final class BlueZStaleBondWatch: Sendable {
    private let store: BlueZTreeStore
    private let path: String
    private let state = Mutex(State())

    private struct State {
        var observer: UInt64?
        var cameUp = false
    }

    init(store: BlueZTreeStore, path: String) {
        self.store = store
        self.path = path
        let registered = store.observe { [weak self] event in
            guard let self, case .changed(_, let tree) = event, tree.device(at: path)?.connected == true else { return }
            self.state.withLock { $0.cameUp = true }
        }
        state.withLock { $0.observer = registered?.id }
    }

    func stop() {
        if let id = state.withLock({ $0.observer }) { store.removeObserver(id) }
    }

    /// After a failed Connect: whether Connected went true meanwhile. bluetoothd sends property
    /// changes from an idle callback, after the reply (§2), so it gets a moment to arrive.
    func linkCameUp() async -> Bool {
        let grace = ContinuousClock.now.advanced(by: .seconds(1))
        while ContinuousClock.now < grace {
            if state.withLock({ $0.cameUp }) { return true }
            do { try await Task.sleep(for: .milliseconds(50)) } catch { return false }
        }
        return state.withLock { $0.cameUp }
    }

    /// After a successful Connect: whether the link fell again before services were resolved.
    func linkFellBeforeUse(deadline: ContinuousClock.Instant) async -> Bool {
        let path = path
        let grace = min(deadline, ContinuousClock.now.advanced(by: .seconds(2)))
        let outcome = await store.wait(until: grace) { tree in
            guard let device = tree.device(at: path) else { return true }
            return !device.connected || device.servicesResolved
        }
        guard case .satisfied(let tree) = outcome, let device = tree.device(at: path) else { return false }
        return !device.connected && !device.servicesResolved
    }
}
