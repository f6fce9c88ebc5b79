/// Image state read (image group, command 0, op read): no parameters.
public struct ImageStateReadRequest: SMPRequest {
    public typealias Response = ImageStateResponse
    public static var group: SMPGroup { .image }
    public static var command: UInt8 { ImageMgmtCommand.state.rawValue }
    public static var op: SMPOp { .read }

    public init() {}
    public init(body: CBORMap) throws(SMPBodyError) {}
    public var body: CBORMap { [:] }
}

/// Image state write (command 0, op write): mark a slot for test (`hash`, no confirm), confirm the
/// running image (`confirm: true`, no hash) or make a slot permanent (both).
///
/// `hash` is the MCUboot SHA256 TLV of the target slot. Zephyr requires exactly 32 bytes and
/// answers other lengths with `ImageMgmtError.invalidHash`; the codec accepts any length so the
/// virtual device can give that answer.
public struct ImageStateWriteRequest: SMPRequest {
    public typealias Response = ImageStateResponse
    public static var group: SMPGroup { .image }
    public static var command: UInt8 { ImageMgmtCommand.state.rawValue }
    public static var op: SMPOp { .write }

    public var hash: [UInt8]?
    public var confirm: Bool?

    public init(hash: [UInt8]? = nil, confirm: Bool? = nil) {
        self.hash = hash
        self.confirm = confirm
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        let fields = SMPFields(body)
        hash = try fields.optionalBytes("hash")
        confirm = try fields.optionalBool("confirm")
    }

    /// Keys in canonical order, as smpclient sends them.
    public var body: CBORMap {
        var map: CBORMap = [:]
        map.append("hash", ifPresent: hash.map(CBORValue.bytes))
        map.append("confirm", ifPresent: confirm.map(CBORValue.bool))
        return map
    }
}

/// One slot in an image state response.
public struct ImageSlotState: Sendable, Hashable {
    /// Image number; Zephyr sends it only when the device has more than one updatable image.
    public var image: UInt64?
    /// 0 = primary, 1 = secondary, within the image.
    public var slot: UInt64
    /// "major.minor.revision", plus ".build" when the build number is not 0.
    public var version: String
    /// The slot's MCUboot SHA256 TLV (not the SHA-256 of the file). Empty when the device leaves
    /// it out: MCUboot's serial recovery built without `BOOT_SERIAL_IMG_GRP_HASH` (Zephyr's
    /// application always sends it).
    public var hash: [UInt8]
    // Zephyr's frugal list omits flags that are false, so an absent flag decodes as false.
    public var bootable: Bool
    public var pending: Bool
    public var confirmed: Bool
    public var active: Bool
    public var permanent: Bool

    public init(image: UInt64? = nil, slot: UInt64, version: String, hash: [UInt8], bootable: Bool = true,
                pending: Bool = false, confirmed: Bool = false, active: Bool = false, permanent: Bool = false) {
        self.image = image
        self.slot = slot
        self.version = version
        self.hash = hash
        self.bootable = bootable
        self.pending = pending
        self.confirmed = confirmed
        self.active = active
        self.permanent = permanent
    }

    init(_ fields: SMPFields) throws(SMPBodyError) {
        image = try fields.optionalUInt("image")
        slot = try fields.uint("slot")
        version = try fields.text("version")
        hash = try fields.optionalBytes("hash") ?? []
        bootable = try fields.optionalBool("bootable") ?? false
        pending = try fields.optionalBool("pending") ?? false
        confirmed = try fields.optionalBool("confirmed") ?? false
        active = try fields.optionalBool("active") ?? false
        permanent = try fields.optionalBool("permanent") ?? false
    }

    /// In Zephyr's order, with every flag present (its default, non-frugal list).
    var body: CBORMap {
        var map: CBORMap = [:]
        map.append("image", ifPresent: image.map(CBORValue.unsigned))
        map.append("slot", .unsigned(slot))
        map.append("version", .text(version))
        map.append("hash", .bytes(hash))
        map.append("bootable", .bool(bootable))
        map.append("pending", .bool(pending))
        map.append("confirmed", .bool(confirmed))
        map.append("active", .bool(active))
        map.append("permanent", .bool(permanent))
        return map
    }

    /// `version` parsed as an MCUboot version, or nil if it is not 3 or 4 dot-separated numbers
    /// within the header's field widths.
    public var imageVersion: ImageVersion? {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4,
              let major = UInt8(parts[0]), let minor = UInt8(parts[1]), let revision = UInt16(parts[2])
        else { return nil }
        var build: UInt32 = 0
        if parts.count == 4 {
            guard let b = UInt32(parts[3]) else { return nil }
            build = b
        }
        return ImageVersion(major: major, minor: minor, revision: revision, build: build)
    }
}

/// Image state response (to read, and to a successful write): `{images: [...], splitStatus?}`.
public struct ImageStateResponse: SMPBody {
    public var images: [ImageSlotState]
    /// Legacy split-image status; Zephyr sends 0 in its non-frugal list.
    public var splitStatus: Int64?

    public init(images: [ImageSlotState], splitStatus: Int64? = nil) {
        self.images = images
        self.splitStatus = splitStatus
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        let fields = SMPFields(body)
        var images: [ImageSlotState] = []
        for item in try fields.mapArray("images") { images.append(try ImageSlotState(item)) }
        self.images = images
        splitStatus = try fields.optionalInt("splitStatus")
    }

    public var body: CBORMap {
        var map: CBORMap = [:]
        map.append("images", .array(images.map { .map($0.body) }))
        map.append("splitStatus", ifPresent: splitStatus.map(CBORValue.int))
        return map
    }

    /// The entry for `slot` of `image` (entries without `image` belong to image 0).
    public func slot(_ slot: UInt64, image: UInt64 = 0) -> ImageSlotState? {
        images.first { $0.slot == slot && ($0.image ?? 0) == image }
    }
}
