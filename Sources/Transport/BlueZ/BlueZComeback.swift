import Transport

/// What shows that a `name:` peer is back after our link to it ended (a reboot, most often). It may
/// return at the address it was last reached at or under a new one (bluez-dbus.md §2, §8), and until
/// bluetoothd's Connected=false arrives (sent from an idle callback, after our fds hung up) the old
/// Device1 still says Connected=true. So neither that nor the old object being there proves the
/// device is present: only an advertisement heard now does.
///
/// Heard now: for the old address, an RSSI that appears or changes while we watch (bluetoothd
/// invalidates RSSI when a discovery ends and emits it only when it changes, so a value left over
/// from an earlier scan is not news); for any other device with the name and an expected service,
/// an RSSI at all, as when finding it the first time. A device of ours that is connected counts
/// unless our last link to it ended. Pure: the connector shows it each tree while it discovers.
struct BlueZComeback: Sendable {
    /// Where the peer was last reached.
    let lastAddress: String
    let name: String
    /// Any of these advertised (empty: any device with the name).
    let services: [ServiceID]
    let adapterPath: String
    /// Device paths whose newest link of ours has ended: their Connected=true may be stale.
    let lostPaths: Set<String>
    /// The old address's RSSI as last seen (nil: none).
    private var lastRSSI: Int?
    /// The device that showed it is back, once one has.
    private(set) var found: BlueZDeviceInfo?

    /// `tree` is the tree when the watch begins: the old address's RSSI in it is not news.
    init(lastAddress: String, name: String, services: [ServiceID], adapterPath: String, lostPaths: Set<String>,
         tree: BlueZObjectTree) {
        self.lastAddress = lastAddress
        self.name = name
        self.services = services
        self.adapterPath = adapterPath
        self.lostPaths = lostPaths
        lastRSSI = tree.device(address: lastAddress, adapter: adapterPath)?.rssi
    }

    /// Looks at the tree as it is now; true once a device has shown it is back (`found`). Call it
    /// with every tree in order: a fresh RSSI of the old address is news only once.
    mutating func look(at tree: BlueZObjectTree) -> Bool {
        if found != nil { return true }
        let devices = tree.devices(of: adapterPath)
        if let last = devices.first(where: { $0.address == lastAddress }) {
            let fresh = last.rssi != nil && last.rssi != lastRSSI
            lastRSSI = last.rssi
            if fresh || isLive(last) {
                found = last
                return true
            }
        } else {
            lastRSSI = nil  // gone: whatever it shows when it reappears is news
        }
        found = devices.first { device in
            device.address != lastAddress && device.name == name
                && (services.isEmpty || device.services.contains(where: services.contains))
                && (device.rssi != nil || isLive(device))
        }
        return found != nil
    }

    /// Connected, and not by a link of ours that has ended.
    private func isLive(_ device: BlueZDeviceInfo) -> Bool {
        device.connected && !lostPaths.contains(device.path)
    }

    /// Whether the old address still says it is connected (bluetoothd's verdict is pending, or it
    /// kept the link).
    func lastAddressClaimsConnection(in tree: BlueZObjectTree) -> Bool {
        tree.device(address: lastAddress, adapter: adapterPath)?.connected == true
    }
}
