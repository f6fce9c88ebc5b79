/// An MCUboot image version: major.minor.revision+build, as the image header stores it.
public struct ImageVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
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

    /// `1.2.3+45`, exactly as `imgtool verify` prints it (the build is always shown, `+0` included).
    public var description: String { "\(major).\(minor).\(revision)+\(build)" }

    public static func < (a: ImageVersion, b: ImageVersion) -> Bool {
        (a.major, a.minor, a.revision, a.build) < (b.major, b.minor, b.revision, b.build)
    }
}
