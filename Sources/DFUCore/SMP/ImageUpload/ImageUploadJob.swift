/// What to upload: the image and the fields of the first (`off == 0`) packet.
public struct ImageUploadJob: Sendable, Hashable {
    /// The whole file as it goes to the slot (header, body, TLVs).
    public var image: [UInt8]
    /// SHA-256 of the whole file: the device's session id. The same value on every first packet is
    /// what lets the device resume instead of starting over.
    public var sha256: [UInt8]
    /// `image`: which updatable image (multi-image devices); nil leaves the device's default, 0.
    public var imageNumber: UInt64?
    /// `upgrade`: have the device refuse an image that is not newer than the running one.
    public var upgradeOnly: Bool
    /// The image's SHA256 TLV (what the device's image list reports for a slot holding it). When
    /// set, a restored link first reads the image list: if slot 1 already holds this image (the
    /// device wrote the last chunk and closed its session, but the reply was lost), the upload is
    /// complete, where the resume probe would open a new session and erase the slot again.
    public var slotHash: [UInt8]?

    public init(image: [UInt8], sha256: [UInt8], imageNumber: UInt64? = nil, upgradeOnly: Bool = false,
                slotHash: [UInt8]? = nil) {
        self.image = image
        self.sha256 = sha256
        self.imageNumber = imageNumber
        self.upgradeOnly = upgradeOnly
        self.slotHash = slotHash
    }

    /// The smallest first chunk Zephyr accepts: a whole MCUboot header (`INVALID_IMAGE_HEADER`
    /// otherwise). Also the size of the probe that resumes a session: enough to be valid, little
    /// enough that sending it to a device that already has it wastes almost nothing.
    public static let minimumFirstChunk = 32

    public var length: UInt64 { UInt64(image.count) }

    /// Nil when the job can be uploaded; else why not (bad input, refused before any byte is sent).
    public var problem: String? {
        if image.count < Self.minimumFirstChunk {
            return "the image has \(image.count) bytes, fewer than an MCUboot header (\(Self.minimumFirstChunk))"
        }
        if sha256.count != SHA256.byteCount {
            return "the session hash has \(sha256.count) bytes instead of the \(SHA256.byteCount) of a SHA-256"
        }
        return nil
    }

    /// The request for `count` bytes at `offset`. At offset 0 it is the first packet and carries
    /// every first-packet field (Zephyr requires them all again after it lost the session).
    func request(offset: UInt64, count: Int) -> ImageUploadRequest {
        let start = Int(offset)
        let data = Array(image[start..<(start + count)])
        return offset == 0 ? firstPacketTemplate(data: data) : ImageUploadRequest(offset: offset, data: data)
    }

    /// The first packet with `data` (empty when used to size the chunk).
    func firstPacketTemplate(data: [UInt8] = []) -> ImageUploadRequest {
        ImageUploadRequest(image: imageNumber, length: length, offset: 0, sha: sha256, data: data,
                           upgrade: upgradeOnly ? true : nil)
    }
}

extension ImageStateResponse {
    /// Whether slot 1 of `image` (the one uploads to that image write) holds the image whose
    /// SHA256 TLV is `slotHash`. The one test both the engine's plan and the upload's
    /// post-reconnect check use.
    func secondarySlotHolds(_ slotHash: [UInt8], image: UInt64 = 0) -> Bool {
        slot(1, image: image)?.hash == slotHash
    }

    /// The running image of `image`: its active entry, else its slot 0 (entries without `image`
    /// belong to image 0).
    func running(image: UInt64 = 0) -> ImageSlotState? {
        images.first { $0.active && ($0.image ?? 0) == image } ?? slot(0, image: image)
    }
}
