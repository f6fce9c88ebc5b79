import DeviceSim
import Transport

/// The fleet measurement: `FleetProfile.devices` virtual devices on one connector whose links share
/// one `MemoryAdapter`, each prepared as `TransferRun`'s device is (an earlier image in slot 1), then
/// all transferring the image at once, each as `TransferRun` measures one.
struct FleetRun {
    let fleet: FleetProfile
    let image: ImageFile
    let previous: ImageFile

    func measure() async throws -> FleetMeasurement {
        let clock = LinkClock.realTime()
        let connector = MemoryConnector(clock: clock, adapter: MemoryAdapter(clock: clock))
        let ids = (0 ..< fleet.devices).map { "C0:FE:00:00:00:" + hexDigits($0, width: 2) }
        // The preparing uploads share the adapter too; all finish before any measured transfer
        // starts, so the measured ones run side by side from their first reply on.
        let devices = try await withThrowingTaskGroup(of: (Int, BenchDevice).self) { group in
            for (index, id) in ids.enumerated() {
                group.addTask { [fleet, previous] in
                    (index, try await BenchDevice.prepare(fleet.bench, previous: previous, on: connector, id: id))
                }
            }
            var devices: [(Int, BenchDevice)] = []
            for try await device in group { devices.append(device) }
            return devices.sorted { $0.0 < $1.0 }.map(\.1)
        }
        let transfers = try await withThrowingTaskGroup(of: (Int, TransferRun.Timed).self) { group in
            for (index, device) in devices.enumerated() {
                group.addTask { [fleet, image, previous] in
                    (index, try await TransferRun(profile: fleet.bench, image: image, previous: previous).measure(on: device))
                }
            }
            var transfers: [(Int, TransferRun.Timed)] = []
            for try await transfer in group { transfers.append(transfer) }
            return transfers.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return FleetMeasurement(fleet: fleet, transfers: transfers)
    }
}
