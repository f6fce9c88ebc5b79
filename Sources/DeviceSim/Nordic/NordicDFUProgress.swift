/// The bootloader's `dfu_progress_t` plus the init command buffer: what a transfer has reached.
/// It lives in RAM; the bootloader copies it to its stored settings only at the points the SDK
/// writes them (`NordicDFUSettings`).
public struct NordicDFUProgress: Sendable, Hashable {
    /// The size Create(command) declared; 0 before any.
    public var commandSize = 0
    /// The init command bytes received so far (their count is the command offset).
    public var initCommand: [UInt8] = []
    public var commandCRC: UInt32 = 0
    /// The size of the data object being filled; 0 when none is (after its Execute).
    public var dataObjectSize = 0
    /// Cumulative image offset and CRC over everything received, the open object included.
    public var imageOffset = 0
    public var imageCRC: UInt32 = 0
    /// Offset and CRC at the end of the last executed data object (`*_last`).
    public var imageOffsetLast = 0
    public var imageCRCLast: UInt32 = 0

    public init() {}

    public var commandOffset: Int { initCommand.count }
}
