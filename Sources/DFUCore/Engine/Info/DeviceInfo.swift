/// What a device says about itself before an update: the link, the protocol it is updated with and
/// what that protocol reports (SMP: MCUmgr parameters, every image slot, slot size, bootloader mode;
/// Nordic: bootloader or buttonless application, the bootloader's objects), battery and firmware
/// revision. What `dfu info` shows.
public struct DeviceInfo: Sendable, Equatable {
    /// The link as it came up: MTU, largest write, PHY and interval when the backend knows them,
    /// and the upload window the device's buffers allow.
    public var connection: ConnectionSummary
    public var updateProtocol: UpdateProtocolName
    /// The facts `dfu flash` checks its preconditions against (running version and hash, battery,
    /// firmware revision, slot size, MCUmgr buffers, bootloader mode); nil where the device is silent.
    public var facts: DeviceFacts
    /// SMP: every slot of the device's image list, in the order it sent them.
    public var slots: [ImageSlotState]
    /// What the protocol reports beyond `facts`, as its own value (Nordic Secure DFU: what the
    /// device is and, for a bootloader, what it holds; read as `nordic`); nil when it reports nothing
    /// more.
    public var details: (any ProtocolDeviceDetails)?
    /// SMP with several image indexes: the board the device reports (OS info), when it does.
    public var board: String?
    /// SMP: the core each image index updates, where the board tells (`ImageCores`).
    public var imageCores: [UInt64: String] = [:]

    public init(connection: ConnectionSummary, updateProtocol: UpdateProtocolName, facts: DeviceFacts,
                slots: [ImageSlotState], details: (any ProtocolDeviceDetails)? = nil) {
        self.connection = connection
        self.updateProtocol = updateProtocol
        self.facts = facts
        self.slots = slots
        self.details = details
    }

    public static func == (lhs: DeviceInfo, rhs: DeviceInfo) -> Bool {
        lhs.connection == rhs.connection && lhs.updateProtocol == rhs.updateProtocol && lhs.facts == rhs.facts
            && lhs.slots == rhs.slots && lhs.board == rhs.board && lhs.imageCores == rhs.imageCores
            && ProtocolDeviceDetailsEquality.equal(lhs.details, rhs.details)
    }
}
