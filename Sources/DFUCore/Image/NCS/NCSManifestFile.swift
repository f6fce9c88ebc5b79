/// One entry of an NCS manifest's `files` array: an image in the zip and what the build says about it.
///
/// Rules and their sources (nrfconnect/sdk-nrf unless named):
/// - `file`, `size`, `modtime`: always written by `scripts/bootloader/generate_zip.py` (the zip name,
///   the byte count, the file's mtime); required, as by iOS (IOS-nRF-Connect-Device-Manager
///   `iOSMcuManagerLibrary/Source/McuMgrManifest.swift`).
/// - `type`, `board`, `soc`: always passed by `cmake/fw_zip.cmake` (`type=application` for
///   dfu_application.zip; a network core image overrides `board` and `soc`, `cmake/sysbuild/zip.cmake`);
///   required, as by iOS. Android (`sample/.../utils/ZipPackage.java`) knows the types application,
///   bin, mcuboot, suit-envelope and cache.
/// - `image_index`: the MCUboot image number (zip.cmake: SB_CONFIG_MCUBOOT_*_IMAGE_NUMBER); absent in
///   single-image builds before sysbuild (`modules/mcuboot/CMakeLists.txt`), then 0 (Android, iOS).
/// - `slot_index_primary`/`slot_index_secondary`: image * 2 + 1 and + 2 (zip.cmake, swap builds).
/// - `slot`: direct-XIP variants only (zip.cmake): the slot the variant was linked for, image * 2 for
///   the primary and + 1 for the secondary; Android sends such a variant to that slot only.
/// - `version_MCUBOOT` (swap builds), `version_MCUBOOT+XIP` (direct-XIP; iOS: supportsDirectXIP),
///   `version` (network core, zip.cmake), `version_B0` (NSIB images, `cmake/sysbuild/b0_packaging.cmake`).
/// - `load_address`: optional (iOS: absent for SUIT).
/// Other keys are ignored, as both phone libraries do. iOS also takes the image number from `image`
/// or `partition` (SUIT) before `image_index`; no sdk-nrf generator writes those for MCUboot images,
/// so dfu reads `image_index` only. iOS also strips an unquoted `"load_address":0x…` (not JSON) before
/// decoding; generate_zip.py writes integers, so dfu refuses such a file as invalid JSON.
public struct NCSManifestFile: Sendable, Equatable {
    public var file: String
    /// What the manifest says the file holds, in bytes.
    public var size: Int
    public var modtime: Int
    public var type: String
    public var board: String
    public var soc: String
    /// 0 when the manifest does not say (`imageIndexGiven` false).
    public var imageIndex: Int
    public var imageIndexGiven: Bool
    public var slotIndexPrimary: Int?
    public var slotIndexSecondary: Int?
    /// Direct-XIP: the slot this variant runs from.
    public var slot: Int?
    public var loadAddress: UInt32?
    public var versionMCUboot: String?
    public var versionMCUbootXIP: String?
    public var version: String?
    public var versionB0: String?

    /// MCUboot image numbers are small (MCUBOOT_IMAGE_NUMBER); a slot number is image * 2 + 2 at most.
    static let imageIndexRange = 0...255
    static let slotRange = 0...512

    init(_ value: NCSJSONValue, path: String) throws(NCSPackageError) {
        guard case .object(let object) = value else {
            throw .manifestInvalid(reason: "\(path) is \(value.kind), not an object")
        }
        let fields = NCSManifestFieldReader(object: object, path: path)
        file = try fields.requiredString("file")
        size = try fields.requiredInteger("size", in: 0...Int(Int32.max))
        modtime = try fields.requiredInteger("modtime", in: 0...Int(Int64.max))
        type = try fields.requiredString("type")
        board = try fields.requiredString("board")
        soc = try fields.requiredString("soc")
        let index = try fields.optionalIndex("image_index", in: Self.imageIndexRange)
        imageIndex = index ?? 0
        imageIndexGiven = index != nil
        slotIndexPrimary = try fields.optionalIndex("slot_index_primary", in: Self.slotRange)
        slotIndexSecondary = try fields.optionalIndex("slot_index_secondary", in: Self.slotRange)
        slot = try fields.optionalIndex("slot", in: Self.slotRange)
        loadAddress = try fields.optionalAddress("load_address")
        versionMCUboot = try fields.optionalString("version_MCUBOOT")
        versionMCUbootXIP = try fields.optionalString("version_MCUBOOT+XIP")
        version = try fields.optionalString("version")
        versionB0 = try fields.optionalString("version_B0")
    }

    /// The version the manifest states and the key it is under, the first of version_MCUBOOT+XIP,
    /// version_MCUBOOT, version (iOS prefers the XIP one when both are present).
    public var statedVersion: (key: String, value: String)? {
        if let versionMCUbootXIP { return ("version_MCUBOOT+XIP", versionMCUbootXIP) }
        if let versionMCUboot { return ("version_MCUBOOT", versionMCUboot) }
        if let version { return ("version", version) }
        return nil
    }
}
