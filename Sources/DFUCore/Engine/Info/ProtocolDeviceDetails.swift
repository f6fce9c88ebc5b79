/// What one protocol's `dfu info` reads of a device beyond `DeviceFacts`, kept in
/// `DeviceInfo.details` as that protocol's own type and read back through its accessor
/// (`DeviceInfo.nordic`), so `DeviceInfo` names no protocol.
public protocol ProtocolDeviceDetails: Sendable {
    /// Whether `other` is the same details (for `DeviceInfo`'s equality).
    func isEqual(to other: any ProtocolDeviceDetails) -> Bool
}

extension ProtocolDeviceDetails where Self: Equatable {
    public func isEqual(to other: any ProtocolDeviceDetails) -> Bool { (other as? Self) == self }
}

/// Equality of two optional details of any protocol.
enum ProtocolDeviceDetailsEquality {
    static func equal(_ lhs: (any ProtocolDeviceDetails)?, _ rhs: (any ProtocolDeviceDetails)?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (let lhs?, let rhs?): return lhs.isEqual(to: rhs)
        default: return false
        }
    }
}
