import DFUCore

/// What one command handler produced: the reply before version-specific error encoding, the flash
/// time it took, and side effects the server reports as actions.
struct CommandOutcome: Sendable {
    enum Reply: Sendable {
        case body(CBORMap)
        /// `smp_add_cmd_err`: `err {group, rc}` in v2, translated to a plain `rc` in v1.
        case groupError(SMPGroup, Int64)
        /// An SMP-level `mcumgr_err_t`: a plain `rc` in every version.
        case returnCode(MCUmgrError)
    }

    var reply: Reply
    var duration: Duration = .zero
    var progress: UploadProgress?
    var resetAfter: Duration?
    /// A reset's `boot_mode`, stored for the bootloader to read at the next boot.
    var bootMode: UInt8?

    static func body(_ map: CBORMap, duration: Duration = .zero) -> CommandOutcome {
        CommandOutcome(reply: .body(map), duration: duration)
    }

    static func image(_ error: ImageMgmtError, duration: Duration = .zero) -> CommandOutcome {
        CommandOutcome(reply: .groupError(.image, error.rawValue), duration: duration)
    }

    static func rc(_ error: MCUmgrError) -> CommandOutcome {
        CommandOutcome(reply: .returnCode(error))
    }
}

/// An upload chunk was written: how far the session is. Emitted by the server before that chunk's
/// reply, so the device can inject a fault "when N % has been received".
public struct UploadProgress: Sendable, Hashable, CustomStringConvertible {
    /// The next byte the server expects (after this chunk).
    public var offset: Int
    /// The session's `len`.
    public var length: Int
    /// The image index the upload goes to.
    public var image: Int

    public init(offset: Int, length: Int, image: Int = 0) {
        self.offset = offset
        self.length = length
        self.image = image
    }

    public var description: String { "\(offset)/\(length) bytes" }
}

/// The upload in progress (Zephyr `g_img_mgmt_state`): RAM only, so a reset loses it.
public struct UploadSession: Sendable, Hashable {
    /// `len` of the off-0 request.
    public var length: Int
    /// Next byte expected.
    public var offset: Int
    /// `sha` of the off-0 request, any length up to 32, possibly empty; it names the session.
    public var sha: [UInt8]
    /// The image whose secondary slot takes the data (`image` of the off-0 request; 0 with one image).
    public var image: Int

    public init(length: Int, offset: Int = 0, sha: [UInt8], image: Int = 0) {
        self.length = length
        self.offset = offset
        self.sha = sha
        self.image = image
    }
}
