import DeviceSim
import Synchronization

/// Power-cycles the virtual nRF52 once, mid-transfer or as the final Execute arrives: the device's
/// doing, armed as one of the run's `UploadCounter` tripwires (the device model has no fault hook
/// for it).
final class PowerCycleTrigger: Sendable {
    private let powerCycle: @Sendable () async -> Void
    private let fired = Mutex(false)

    /// `powerCycle` cuts the power and restores it (a served device's own way).
    init(powerCycle: @escaping @Sendable () async -> Void) {
        self.powerCycle = powerCycle
    }

    func fire() {
        fired.withLock { $0 = true }
        let powerCycle = self.powerCycle
        Task { await powerCycle() }
    }

    /// Power-cycles it before returning (the device is down when this ends).
    func fireNow() async {
        fired.withLock { $0 = true }
        await powerCycle()
    }

    var hasFired: Bool { fired.withLock { $0 } }
}
