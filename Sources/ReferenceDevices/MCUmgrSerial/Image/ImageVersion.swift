/// `struct image_version` of an MCUboot image header (bootutil/image.h).
public struct MCUbootImageVersion: Sendable, Hashable, CustomStringConvertible {
    public var major: UInt8
    public var minor: UInt8
    public var revision: UInt16
    public var build: UInt32

    public init(major: UInt8, minor: UInt8, revision: UInt16, build: UInt32 = 0) {
        self.major = major
        self.minor = minor
        self.revision = revision
        self.build = build
    }

    /// "major.minor.revision", then ".build" only when the build number is not 0: the same text
    /// from Zephyr's img_mgmt_util.c `img_mgmt_ver_str` and MCUboot's boot_serial.c `bs_list_img_ver`.
    public var description: String {
        let base = "\(major).\(minor).\(revision)"
        return build == 0 ? base : base + ".\(build)"
    }

    /// img_mgmt `img_mgmt_vercmp`: major, minor, revision; the build number only with
    /// `CONFIG_MCUMGR_GRP_IMG_VERSION_CMP_USE_BUILD_NUMBER` (default n).
    func compare(_ other: MCUbootImageVersion, useBuildNumber: Bool = false) -> Int {
        if major != other.major { return major < other.major ? -1 : 1 }
        if minor != other.minor { return minor < other.minor ? -1 : 1 }
        if revision != other.revision { return revision < other.revision ? -1 : 1 }
        if useBuildNumber, build != other.build { return build < other.build ? -1 : 1 }
        return 0
    }
}
