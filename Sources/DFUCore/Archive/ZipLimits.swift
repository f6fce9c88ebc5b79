/// Bounds checked before anything is read from an archive: a firmware package is a handful of small
/// files, so anything far bigger is a wrong file or a zip bomb, refused before it is inflated.
public struct ZipLimits: Sendable, Equatable {
    public var maximumEntryCount: Int
    /// For every entry: its declared size is checked first, then at most this + 1 bytes are read.
    public var maximumEntrySize: Int
    /// The sum of all declared sizes.
    public var maximumTotalSize: Int

    public init(maximumEntryCount: Int, maximumEntrySize: Int, maximumTotalSize: Int) {
        self.maximumEntryCount = maximumEntryCount
        self.maximumEntrySize = maximumEntrySize
        self.maximumTotalSize = maximumTotalSize
    }

    /// Firmware packages: up to 64 entries of at most 16 MiB, 64 MiB in all (the largest nRF flash is
    /// 2 MiB; an nRF Connect SDK package holds a few images).
    public static let firmwarePackage = ZipLimits(maximumEntryCount: 64, maximumEntrySize: 16 * 1024 * 1024,
                                                  maximumTotalSize: 64 * 1024 * 1024)
}
