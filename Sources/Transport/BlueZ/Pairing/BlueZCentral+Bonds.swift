import Transport

/// Forgetting a device's bond: `Adapter1.RemoveDevice` removes the device object with its keys
/// (doc/adapter-api.txt), as `bluetoothctl remove` does. Only the devices bluetoothd already knows
/// on this adapter can be forgotten, so nothing is scanned for.
extension BlueZCentral {
    /// What `forget` found.
    public enum Forgotten: Sendable, Equatable {
        /// The device was known; `wasPaired`: it had a bond, now gone.
        case removed(address: String, wasPaired: Bool)
        /// bluetoothd knows no such device on this adapter: there is nothing to forget.
        case unknown
    }

    /// Removes every device object `peer` names on the adapter ("AA:BB:…" or "name:NAME", by its
    /// advertised name), with its bond.
    public func forget(_ peer: PeerIdentity) async throws(BlueZError) -> Forgotten {
        guard let target = BlueZPeerTarget(peer) else { return .unknown }
        let devices = client.store.tree.devices(of: adapter.path).filter { device in
            switch target {
            case .address(let address): return device.address == address
            case .name(let name), .soleName(let name): return device.name == name
            }
        }
        guard let first = devices.first else { return .unknown }
        for device in devices {
            try await client.removeDevice(device.path, from: adapter)
        }
        return .removed(address: first.address, wasPaired: devices.contains { $0.paired })
    }
}
