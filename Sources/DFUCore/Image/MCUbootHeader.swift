/// The 32-byte MCUboot image header (`struct image_header` in bootutil's image.h), little-endian as
/// imgtool writes it by default.
public struct MCUbootHeader: Sendable, Equatable {
    public static let magic: UInt32 = 0x96F3_B83D
    /// MCUboot v1 headers; imgtool stopped writing them long ago and today's bootloaders refuse them.
    public static let legacyMagic: UInt32 = 0x96F3_B83C
    public static let size = 32

    /// Bits of `ih_flags` (imgtool `IMAGE_F`).
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let positionIndependent = Flags(rawValue: 0x01)
        public static let encryptedAES128 = Flags(rawValue: 0x04)
        public static let encryptedAES256 = Flags(rawValue: 0x08)
        public static let nonBootable = Flags(rawValue: 0x10)
        public static let ramLoad = Flags(rawValue: 0x20)
        public static let romFixed = Flags(rawValue: 0x100)
        public static let compressedLZMA1 = Flags(rawValue: 0x200)
        public static let compressedLZMA2 = Flags(rawValue: 0x400)
        public static let compressedARMThumb = Flags(rawValue: 0x800)

        /// The body is encrypted; its hash covers the plaintext, which only the device can see.
        public var isEncrypted: Bool { !isDisjoint(with: [.encryptedAES128, .encryptedAES256]) }
    }

    /// `ih_load_addr`: RAM-load or ROM-fixed address, 0 otherwise.
    public let loadAddress: UInt32
    /// `ih_hdr_size`: where the body starts; the header may be padded past 32 bytes (e.g. 0x200).
    public let headerSize: Int
    /// `ih_protect_tlv_size`: the whole protected TLV area, its 4-byte info included; 0 if there is none.
    public let protectedTLVSize: Int
    /// `ih_img_size`: the body, header excluded.
    public let imageSize: Int
    public let flags: Flags
    public let version: ImageVersion

    public init(loadAddress: UInt32 = 0, headerSize: Int, protectedTLVSize: Int, imageSize: Int,
                flags: Flags = [], version: ImageVersion) {
        self.loadAddress = loadAddress
        self.headerSize = headerSize
        self.protectedTLVSize = protectedTLVSize
        self.imageSize = imageSize
        self.flags = flags
        self.version = version
    }

    /// Reads the header at the start of `bytes`. Checks only what the header alone can tell: the magic,
    /// that the padded header is at least 32 bytes and lies inside the file. `MCUbootImage` checks the rest.
    public init(bytes: [UInt8]) throws(ImageError) {
        try self.init(reader: ByteReader(bytes))
    }

    init(reader: ByteReader) throws(ImageError) {
        let magic = try reader.u32(at: 0, what: "image header magic")
        guard magic == Self.magic else {
            if magic == Self.legacyMagic {
                throw .unsupportedImage(reason: "it has a legacy MCUboot v1 header (magic 0x96F3B83C); sign it again with a current imgtool")
            }
            if magic == Self.magic.byteSwapped {
                throw .unsupportedImage(reason: "it was signed big-endian (imgtool --endian big); sign it again little-endian, imgtool's default")
            }
            throw .badMagic(found: magic)
        }
        _ = try reader.range(at: 0, length: Self.size, what: "image header")
        loadAddress = try reader.u32(at: 4, what: "ih_load_addr")
        headerSize = Int(try reader.u16(at: 8, what: "ih_hdr_size"))
        protectedTLVSize = Int(try reader.u16(at: 10, what: "ih_protect_tlv_size"))
        imageSize = Int(try reader.u32(at: 12, what: "ih_img_size"))
        flags = Flags(rawValue: try reader.u32(at: 16, what: "ih_flags"))
        version = ImageVersion(major: try reader.u8(at: 20, what: "version major"),
                               minor: try reader.u8(at: 21, what: "version minor"),
                               revision: try reader.u16(at: 22, what: "version revision"),
                               build: try reader.u32(at: 24, what: "version build"))
        guard headerSize >= Self.size else {
            throw .invalidField(field: "ih_hdr_size", value: headerSize,
                                reason: "is smaller than the 32-byte header")
        }
        _ = try reader.range(at: 0, length: headerSize, what: "padded image header (ih_hdr_size)")
    }
}
