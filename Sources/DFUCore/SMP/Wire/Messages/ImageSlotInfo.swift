/// Slot info (image group, command 6, op read; optional `CONFIG_MCUMGR_GRP_IMG_SLOT_INFO`): slot
/// sizes, so an image too large for the device is refused before the first byte.
public struct ImageSlotInfoRequest: SMPRequest {
    public typealias Response = ImageSlotInfoResponse
    public static var group: SMPGroup { .image }
    public static var command: UInt8 { ImageMgmtCommand.slotInfo.rawValue }
    public static var op: SMPOp { .read }

    public init() {}
    public init(body: CBORMap) throws(SMPBodyError) {}
    public var body: CBORMap { [:] }
}

/// `{"images": [{"image", "slots": [{"slot", "size", "upload_image_id"?}], "max_image_size"?}]}`.
public struct ImageSlotInfoResponse: SMPBody {
    public struct Slot: Sendable, Hashable {
        public var slot: UInt64
        /// Slot size in bytes.
        public var size: UInt64
        /// The `image` value to upload into this slot, when it can be a target.
        public var uploadImageID: UInt64?

        public init(slot: UInt64, size: UInt64, uploadImageID: UInt64? = nil) {
            self.slot = slot
            self.size = size
            self.uploadImageID = uploadImageID
        }
    }

    public struct Image: Sendable, Hashable {
        public var image: UInt64
        public var slots: [Slot]
        /// Largest image the device accepts (may be below the slot size: trailer, swap space).
        public var maxImageSize: UInt64?

        public init(image: UInt64, slots: [Slot], maxImageSize: UInt64? = nil) {
            self.image = image
            self.slots = slots
            self.maxImageSize = maxImageSize
        }
    }

    public var images: [Image]

    public init(images: [Image]) {
        self.images = images
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        var images: [Image] = []
        for imageFields in try SMPFields(body).mapArray("images") {
            var slots: [Slot] = []
            for s in try imageFields.mapArray("slots") {
                slots.append(Slot(slot: try s.uint("slot"), size: try s.uint("size"),
                                  uploadImageID: try s.optionalUInt("upload_image_id")))
            }
            images.append(Image(image: try imageFields.uint("image"), slots: slots,
                                maxImageSize: try imageFields.optionalUInt("max_image_size")))
        }
        self.images = images
    }

    public var body: CBORMap {
        let list: [CBORValue] = images.map { image in
            var m: CBORMap = [:]
            m.append("image", .unsigned(image.image))
            m.append("slots", .array(image.slots.map { slot in
                var s: CBORMap = [:]
                s.append("slot", .unsigned(slot.slot))
                s.append("size", .unsigned(slot.size))
                s.append("upload_image_id", ifPresent: slot.uploadImageID.map(CBORValue.unsigned))
                return .map(s)
            }))
            m.append("max_image_size", ifPresent: image.maxImageSize.map(CBORValue.unsigned))
            return .map(m)
        }
        return ["images": .array(list)]
    }
}
