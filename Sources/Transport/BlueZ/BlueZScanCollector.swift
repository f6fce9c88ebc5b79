/// What a scan has found so far: pure bookkeeping, fed device snapshots in arrival order.
///
/// A device counts as heard when it has an RSSI: BlueZ invalidates RSSI when discovery ends
/// (adapter.c `invalidate_rssi_and_tx_power`), so a cached device from an earlier session does not
/// show up until it advertises again. Each match is re-checked against our filter, because BlueZ
/// merges the filters of all its clients.
struct BlueZScanCollector: Sendable {
    let filter: BlueZScanFilter
    let adapterPath: String
    private var byAddress: [String: BlueZDiscoveredDevice] = [:]

    init(filter: BlueZScanFilter, adapterPath: String) {
        self.filter = filter
        self.adapterPath = adapterPath
    }

    /// One matching device as it is now; `isNew` the first time it matched.
    struct Sighting: Sendable, Equatable {
        var device: BlueZDiscoveredDevice
        var isNew: Bool
    }

    /// Takes device snapshots; returns those that match now (latest data), in the order given.
    mutating func consider(_ devices: [BlueZDeviceInfo]) -> [Sighting] {
        var sightings: [Sighting] = []
        for info in devices where info.adapterPath == adapterPath && info.rssi != nil {
            let device = info.discovered
            guard filter.matches(device) else { continue }
            let isNew = byAddress.updateValue(device, forKey: device.address) == nil
            sightings.append(Sighting(device: device, isNew: isNew))
        }
        return sightings
    }

    /// Every device that matched, with its latest matching data, strongest first.
    var matches: [BlueZDiscoveredDevice] {
        byAddress.values.sorted(by: BlueZDiscoveredDevice.strongestFirst)
    }
}
