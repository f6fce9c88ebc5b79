/// Why a zip archive (a Nordic DFU package, an nRF Connect SDK `dfu_application.zip`) was refused. Each
/// description says what is wrong and what to do; names from the archive are shown escaped, never raw.
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a zip archive at all (no end-of-central-directory record).
    case notAZip(reason: String)
    /// A zip archive whose directory or data is cut short or inconsistent (truncated download, bad CRC).
    case damaged(reason: String)
    /// More entries than `limit`: not a firmware package.
    case tooManyEntries(count: Int, limit: Int)
    /// An entry whose size (declared, or found while reading) is above `limit`.
    case entryTooLarge(name: String, size: UInt64, limit: Int)
    /// The entries together declare more than `limit` bytes.
    case archiveTooLarge(size: UInt64, limit: Int)
    /// An entry name that could escape a directory or is ambiguous: `..`, absolute, backslash, NUL, empty.
    case unsafeEntryName(name: String, reason: String)
    /// Two entries with the same name: which one a tool uses differs between tools. libzip refuses these
    /// itself without naming them, so the name may be unknown.
    case duplicateEntry(name: String?)
    /// An entry dfu cannot read (encrypted, or a compression method libzip lacks).
    case unreadableEntry(name: String, reason: String)
    /// The entry held a different number of bytes than its directory record declared.
    case entrySizeMismatch(name: String, declared: UInt64, actual: Int)
    /// libzip failed at something that should not fail (out of memory).
    case libraryFailure(operation: String, detail: String)

    public var description: String {
        switch self {
        case .notAZip(let reason):
            return "not a zip archive (\(reason)). Pass the .zip package itself, re-downloaded if needed."
        case .damaged(let reason):
            return "the zip archive is damaged or truncated (\(reason)). Re-download or rebuild it."
        case .tooManyEntries(let count, let limit):
            return "the zip archive has \(count) entries, more than the \(limit) a firmware package can have. Check that this is the right file."
        case .entryTooLarge(let name, let size, let limit):
            return "zip entry \(name) is \(size) bytes, more than the \(limit) bytes dfu accepts for it. Check that this is the right file."
        case .archiveTooLarge(let size, let limit):
            return "the zip archive's entries add up to \(size) bytes, more than the \(limit) bytes dfu accepts. Check that this is the right file."
        case .unsafeEntryName(let name, let reason):
            return "zip entry \(name) has an unsafe name (\(reason)); dfu refuses such archives. Rebuild the package with nrfutil."
        case .duplicateEntry(let name):
            let which = name.map { "zip entry \($0) appears twice" } ?? "two zip entries have the same name"
            return "\(which); tools disagree on which one counts. Rebuild the package."
        case .unreadableEntry(let name, let reason):
            return "cannot read zip entry \(name): \(reason). Rebuild the package without encryption and with deflate or no compression."
        case .entrySizeMismatch(let name, let declared, let actual):
            return "zip entry \(name) declares \(declared) bytes but holds \(actual). The archive is damaged; re-download or rebuild it."
        case .libraryFailure(let operation, let detail):
            return "libzip failed while \(operation): \(detail). Check the libzip installation (libzip4); this is not a problem with the file."
        }
    }
}
