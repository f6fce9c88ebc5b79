/// The two object types of the DFU protocol (nrf_dfu_req_handler.h `nrf_dfu_obj_type_t`).
public enum SDKObjectType: UInt8, Sendable, Hashable {
    case command = 0x01
    case data = 0x02
}

/// Link drops the device causes on purpose, each firing once over the device's life. Counts are
/// 1-based and run across connections and resets. A dropped link is a link loss to the bootloader:
/// it does what it does on any disconnection (see `SDKVersion.keepsProgressOnLinkLoss`).
public struct SDKFaultPlan: Sendable, Hashable {
    /// Where inside which data object the link drops.
    public struct Cut: Sendable, Hashable {
        /// The Nth data object created successfully.
        public var object: Int
        /// The link drops once that object holds at least this many bytes.
        public var bytes: UInt32

        public init(object: Int, bytes: UInt32) {
            self.object = object
            self.bytes = bytes
        }
    }

    /// Drop the link right after answering the Nth Create of a data object (counting every answered
    /// Create(data), whatever its result): the answer goes out, then the link goes down.
    public var dropAfterCreate: Int?
    /// Drop the link right after answering the Nth Execute of an object of `dropAfterExecuteOf`
    /// (counting every answered Execute while that type was selected).
    public var dropAfterExecute: Int?
    public var dropAfterExecuteOf: SDKObjectType
    /// Drop the link inside a data object. A Packet write is accepted whole (an ATT PDU cannot be
    /// cut), then the link drops.
    public var dropInsideDataObject: Cut?

    public init(dropAfterCreate: Int? = nil, dropAfterExecute: Int? = nil, dropAfterExecuteOf: SDKObjectType = .data,
                dropInsideDataObject: Cut? = nil) {
        self.dropAfterCreate = dropAfterCreate
        self.dropAfterExecute = dropAfterExecute
        self.dropAfterExecuteOf = dropAfterExecuteOf
        self.dropInsideDataObject = dropInsideDataObject
    }

    public static let none = SDKFaultPlan()
}
