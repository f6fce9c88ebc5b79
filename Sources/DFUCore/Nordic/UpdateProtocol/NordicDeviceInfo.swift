/// What `dfu info` learns from a Nordic Secure DFU device: whether it is the bootloader or an
/// application with buttonless DFU, and from a bootloader what its command and data objects hold
/// (Select changes nothing): the sizes it takes and how far an interrupted update got.
public struct NordicDeviceInfo: Sendable, Equatable {
    public enum Role: Sendable, Equatable {
        case bootloader
        /// `bonds`: the variant that keeps bonds (8EC90004), whose bootloader answers at the same
        /// address; without, it answers at the address + 1.
        case buttonlessApplication(bonds: Bool)
    }

    public var role: Role
    /// Select(command): the init packet's room, and how much of one it holds (with its CRC).
    public var commandObject: NordicObjectInfo?
    /// Select(data): the data object size, and how much firmware it holds (with its CRC).
    public var dataObject: NordicObjectInfo?
    /// A bootloader on a serial port: its MTU, protocol, chip and images; nil over Bluetooth.
    public var serial: NordicSerialDetails?

    public init(role: Role, commandObject: NordicObjectInfo? = nil, dataObject: NordicObjectInfo? = nil,
                serial: NordicSerialDetails? = nil) {
        self.role = role
        self.commandObject = commandObject
        self.dataObject = dataObject
        self.serial = serial
    }
}

extension NordicDeviceInfo: ProtocolDeviceDetails {}

extension DeviceInfo {
    /// Nordic Secure DFU: what the device is and, for a bootloader, what it holds; nil for a device
    /// read with another protocol.
    public var nordic: NordicDeviceInfo? {
        get { details as? NordicDeviceInfo }
        set { details = newValue }
    }
}
