/// What a test can assert on.
public struct SDKDeviceCounters: Sendable, Hashable {
    /// Every reset: buttonless entry, completed or aborted DFU, inactivity timeout, a fault.
    public var resets = 0
    /// Successful Execute of a command object.
    public var commandObjectsExecuted = 0
    /// Successful Execute of a data object (an executed object executed again counts again).
    public var dataObjectsExecuted = 0
    /// Packet bytes taken into an object (command or data).
    public var bytesReceived = 0
    /// Images activated by the bootloader after a completed update.
    public var updatesActivated = 0
    /// Link drops injected by the fault plan.
    public var faultsInjected = 0
    /// Answered Create(data) requests, and answered Execute requests per object type, for the
    /// fault plan.
    public var dataCreatesAnswered = 0
    public var executesAnswered: [SDKObjectType: Int] = [:]
    /// Data objects created successfully.
    public var dataObjectsCreated = 0

    public init() {}
}

/// Which image runs.
public enum SDKDeviceMode: Sendable, Hashable {
    case application
    case bootloader
    /// Between a reset and the next image advertising.
    case booting
}
