import DeviceSim
import Synchronization

/// Power-cycles the virtual nRF52 once, mid-transfer or as the final Execute arrives: the device's
/// doing, armed as one of the run's `UploadCounter` tripwires (the device model has no fault hook
/// for it).
final class PowerCycleTrigger: Sendable {
    private let peripheral: VirtualNordicPeripheral
    private let fired = Mutex(false)

    init(peripheral: VirtualNordicPeripheral) {
        self.peripheral = peripheral
    }

    func fire() {
        fired.withLock { $0 = true }
        let peripheral = self.peripheral
        Task { await peripheral.powerCycle() }
    }

    /// Power-cycles it before returning (the device is down when this ends).
    func fireNow() async {
        fired.withLock { $0 = true }
        await peripheral.powerCycle()
    }

    var hasFired: Bool { fired.withLock { $0 } }
}
