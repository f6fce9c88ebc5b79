import DeviceSim
import Synchronization

/// Power-cycles the virtual nRF52 once, mid-transfer: the device's doing, armed as the run's
/// `UploadCounter` tripwire (the device model has no fault hook for it).
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

    var hasFired: Bool { fired.withLock { $0 } }
}
