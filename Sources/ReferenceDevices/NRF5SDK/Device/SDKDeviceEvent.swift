import Transport

/// What happens to the device, fed to `SDKDevice.handle(_:now:)`.
public enum SDKDeviceEvent: Sendable, Hashable {
    /// A central connected to `identity`.
    case connected(PeerIdentity)
    /// The central enabled notifications or indications on a characteristic (its CCCD).
    case subscribed(CharacteristicID)
    /// A Write Request (`withResponse`) or Write Command.
    case write(CharacteristicID, [UInt8], withResponse: Bool)
    /// The connection ended, whoever ended it.
    case disconnected
    /// Time passed; due timers run (an early tick does nothing).
    case tick
}

/// What the device asks its driver to do, in order.
public enum SDKDeviceAction: Sendable, Hashable {
    /// Send a notification or indication (an indication counts as confirmed once sent).
    case notify([UInt8], on: CharacteristicID)
    /// Answer the Write Request being handled with this ATT error (the write changed nothing).
    case refuseWrite(ATTError)
    /// Close the link once everything notified before has gone out.
    case dropLink(SDKLinkDropCause)
    /// Start advertising.
    case startAdvertising(SDKAdvertisement)
    /// Stop advertising under this identity.
    case stopAdvertising(PeerIdentity)
}

/// Why the device closes the link.
public enum SDKLinkDropCause: Sendable, Hashable {
    /// The device resets (the central sees the link end).
    case reset
    /// An injected fault (`SDKFaultPlan`).
    case fault
    /// Nothing advertises under the identity connected to (the device is booting or runs the
    /// other image).
    case notAdvertising
}

/// One advertising set (nrf_dfu_ble.c `advertising_init`: flags, 0xFE59 in the "more available"
/// 16-bit UUID list, the complete local name).
public struct SDKAdvertisement: Sendable, Hashable {
    public var identity: PeerIdentity
    public var name: String
    public var serviceUUIDs: [ServiceID]

    public init(identity: PeerIdentity, name: String, serviceUUIDs: [ServiceID]) {
        self.identity = identity
        self.name = name
        self.serviceUUIDs = serviceUUIDs
    }
}
