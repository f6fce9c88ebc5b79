import ArgumentParsing

/// `pair` and `unpair` work on bonds, which only Bluetooth devices have.
enum BondTarget {
    static func requireBluetooth(_ spec: DeviceSpec, command: String) throws(UsageError) {
        switch spec {
        case .address, .name: return
        case .simulator, .udp, .serial:
            throw UsageError("dfu \(command) is for Bluetooth devices (an address or name:NAME), not --device \(spec)")
        }
    }
}
