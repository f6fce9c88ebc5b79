/// A zip archive read whole and bounded: every entry name checked, the entry count and every size checked
/// against `ZipLimits` before a byte is inflated, each entry read to at most its limit + 1 bytes and held
/// to its declared size. Firmware packages are small, so the entries are kept in memory as plain values.
///
///     let archive = try ZipArchive(bytes: fileBytes)
///     let manifest = archive.entry(named: "manifest.json")
public struct ZipArchive: Sendable {
    /// In the order of the archive's central directory.
    public let entries: [ZipEntry]

    public init(bytes: [UInt8], limits: ZipLimits = .firmwarePackage) throws(ArchiveError) {
        guard bytes.count >= 22 else {
            throw .notAZip(reason: "the file is \(bytes.count) bytes, shorter than the smallest zip archive")
        }
        let archive = try LibZipArchive(copying: bytes)
        let count = archive.entryCount
        guard count <= limits.maximumEntryCount else {
            throw .tooManyEntries(count: count, limit: limits.maximumEntryCount)
        }
        let rawNames = try ZipCentralDirectory.rawNames(in: bytes, expectedCount: count)
        var names: [String] = []
        var sizes: [UInt64] = []
        var total: UInt64 = 0
        for (index, raw) in rawNames.enumerated() {
            let shown = ZipEntryName.display(raw)
            if let problem = ZipEntryName.problem(raw) { throw .unsafeEntryName(name: shown, reason: problem) }
            guard let name = String(validating: raw, as: UTF8.self) else {
                throw .unsafeEntryName(name: shown, reason: "it is not valid UTF-8")
            }
            guard !names.contains(name) else { throw .duplicateEntry(name: shown) }
            let size = try archive.declaredSize(at: index)
            guard size <= UInt64(limits.maximumEntrySize) else {
                throw .entryTooLarge(name: shown, size: size, limit: limits.maximumEntrySize)
            }
            total += size
            guard total <= UInt64(limits.maximumTotalSize) else {
                throw .archiveTooLarge(size: total, limit: limits.maximumTotalSize)
            }
            names.append(name)
            sizes.append(size)
        }
        var entries: [ZipEntry] = []
        for (index, name) in names.enumerated() {
            let shown = ZipEntryName.display(Array(name.utf8))
            let contents = try archive.contents(at: index, name: shown, limit: limits.maximumEntrySize)
            guard contents.count <= limits.maximumEntrySize else {
                throw .entryTooLarge(name: shown, size: UInt64(contents.count), limit: limits.maximumEntrySize)
            }
            guard UInt64(contents.count) == sizes[index] else {
                throw .entrySizeMismatch(name: shown, declared: sizes[index], actual: contents.count)
            }
            entries.append(ZipEntry(name: name, bytes: contents))
        }
        self.entries = entries
    }

    public var names: [String] { entries.map(\.name) }

    public func entry(named name: String) -> ZipEntry? { entries.first { $0.name == name } }

    /// The bytes of the one entry `name`, at most `limit` of them, without reading or checking the other
    /// entries; nil if the archive cannot be opened, has no such entry, or it is larger. Only for telling
    /// kinds of package apart: the package's reader then reads the archive with every check.
    public static func peekEntry(named name: String, in bytes: [UInt8], limit: Int) -> [UInt8]? {
        guard bytes.count >= 22, let archive = try? LibZipArchive(copying: bytes),
              let index = archive.index(named: name), let size = try? archive.declaredSize(at: index),
              size <= UInt64(limit), let contents = try? archive.contents(at: index, name: name, limit: limit),
              contents.count <= limit else { return nil }
        return contents
    }

    /// Whether `bytes` begin like a zip archive (a local file header, or the end record of an empty one):
    /// how `dfu verify` tells a package from an image whatever the file is called.
    public static func looksLikeZip(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }
}
