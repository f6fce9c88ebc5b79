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

extension ImageVersion {
    /// `M.m.r` or `M.m.r+build`, each part within the MCUboot header's field width (a version
    /// option, or a device's firmware revision); nil for anything else.
    public init?(parsing text: String) {
        let (core, buildText) = text.firstIndex(of: "+").map { (text[..<$0], Optional(text[text.index(after: $0)...])) }
            ?? (text[...], nil)
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let major = UInt8(parts[0]), let minor = UInt8(parts[1]),
              let revision = UInt16(parts[2]) else { return nil }
        var build: UInt32 = 0
        if let buildText {
            guard let parsed = UInt32(buildText) else { return nil }
            build = parsed
        }
        self.init(major: major, minor: minor, revision: revision, build: build)
    }
}
