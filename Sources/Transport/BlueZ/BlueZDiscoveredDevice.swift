import Transport

/// A device bluetoothd has heard, as `BlueZCentral.scan` reports it.
public struct BlueZDiscoveredDevice: Sendable, Equatable {
    /// "AA:BB:CC:DD:EE:FF", upper case.
    public var address: String
    /// "public" | "random".
    public var addressType: String?
    /// Name, else Alias only if it is not the address form.
    public var name: String?
    /// dBm, latest heard.
    public var rssi: Int?
    /// Advertised / known UUIDs.
    public var services: [ServiceID]
    public var connected: Bool

    public init(address: String, addressType: String? = nil, name: String? = nil, rssi: Int? = nil,
                services: [ServiceID] = [], connected: Bool = false) {
        self.address = address
        self.addressType = addressType
        self.name = name
        self.rssi = rssi
        self.services = services
        self.connected = connected
    }

    /// Strongest first; devices without an RSSI last; address order among equals, so output is stable.
    static func strongestFirst(_ lhs: BlueZDiscoveredDevice, _ rhs: BlueZDiscoveredDevice) -> Bool {
        switch (lhs.rssi, rhs.rssi) {
        case (let left?, let right?) where left != right: return left > right
        case (.some, nil): return true
        case (nil, .some): return false
        default: return lhs.address < rhs.address
        }
    }
}
