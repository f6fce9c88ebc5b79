/// One file of a zip archive, read in full and within the archive's limits.
public struct ZipEntry: Sendable, Equatable, CustomStringConvertible {
    /// The name as stored (UTF-8, checked by `ZipEntryName`): `app.bin`, `zephyr/app_update.bin`.
    public let name: String
    public let bytes: [UInt8]

    public var description: String { "\(name) (\(bytes.count) bytes)" }
}
