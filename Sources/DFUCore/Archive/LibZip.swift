// All pointer work with libzip lives in this file (STYLE.md, "In dfu"): `grep -rl "import CZip"` lists
// nothing else. The archive is opened read-only over dfu's own copy of the bytes, so no file is opened
// twice and nothing is written. A failed call becomes an `ArchiveError` at the call.
internal import CZip

/// Owns one `zip_t` opened over a private copy of an archive's bytes, which it frees after the archive.
final class LibZipArchive {
    private let archive: OpaquePointer
    private let buffer: UnsafeMutableRawBufferPointer

    init(copying bytes: [UInt8]) throws(ArchiveError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        bytes.withUnsafeBytes { source in buffer.copyMemory(from: source) }
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(buffer.baseAddress, UInt64(bytes.count), 0, &error) else {
            buffer.deallocate()
            throw .libraryFailure(operation: "creating a buffer source", detail: String(cString: zip_error_strerror(&error)))
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            zip_source_free(source)
            buffer.deallocate()
            throw Self.openError(code: zip_error_code_zip(&error), detail: String(cString: zip_error_strerror(&error)),
                                 bytes: bytes)
        }
        self.archive = archive
        self.buffer = buffer
    }

    deinit {
        zip_discard(archive)
        buffer.deallocate()
    }

    var entryCount: Int { Int(max(0, zip_get_num_entries(archive, 0))) }

    /// The declared (uncompressed) size of entry `index`.
    func declaredSize(at index: Int) throws(ArchiveError) -> UInt64 {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_stat_index(archive, UInt64(index), 0, &stat) == 0, stat.valid & UInt64(ZIP_STAT_SIZE) != 0 else {
            throw .damaged(reason: "entry \(index) has no readable directory record")
        }
        return stat.size
    }

    /// The index of the entry named `name` exactly (case and bytes), or nil.
    func index(named name: String) -> Int? {
        let found = zip_name_locate(archive, name, 0)
        return found >= 0 ? Int(found) : nil
    }

    /// Entry `index`'s bytes, reading at most `limit + 1` so a lying size is caught without inflating more.
    func contents(at index: Int, name: String, limit: Int) throws(ArchiveError) -> [UInt8] {
        guard let file = zip_fopen_index(archive, UInt64(index), 0) else {
            let error = zip_get_error(archive)
            throw Self.readError(code: zip_error_code_zip(error), detail: String(cString: zip_error_strerror(error)), name: name)
        }
        defer { zip_fclose(file) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while out.count <= limit {
            let wanted = min(chunk.count, limit + 1 - out.count)
            let count = chunk.withUnsafeMutableBytes { buffer -> Int64 in
                guard let base = buffer.baseAddress else { return -1 }
                return zip_fread(file, base, UInt64(wanted))
            }
            if count < 0 {
                let error = zip_file_get_error(file)
                throw Self.readError(code: zip_error_code_zip(error), detail: String(cString: zip_error_strerror(error)), name: name)
            }
            if count == 0 { break }
            out += chunk.prefix(Int(count))
        }
        return out
    }

    private static func openError(code: Int32, detail: String, bytes: [UInt8]) -> ArchiveError {
        switch code {
        case ZIP_ER_NOZIP:
            // A local file header at the start but no directory at the end: the download was cut short.
            if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
                return .damaged(reason: "it starts as a zip archive but its central directory is missing; the file looks cut short")
            }
            return .notAZip(reason: "libzip: \(detail)")
        case ZIP_ER_EXISTS:
            return .duplicateEntry(name: nil)
        case ZIP_ER_INCONS, ZIP_ER_EOF, ZIP_ER_READ, ZIP_ER_CRC, ZIP_ER_SEEK:
            return .damaged(reason: "libzip: \(detail)")
        default:
            return .libraryFailure(operation: "opening the archive", detail: detail)
        }
    }

    private static func readError(code: Int32, detail: String, name: String) -> ArchiveError {
        switch code {
        case ZIP_ER_COMPNOTSUPP, ZIP_ER_ENCRNOTSUPP, ZIP_ER_NOPASSWD, ZIP_ER_WRONGPASSWD:
            return .unreadableEntry(name: name, reason: "libzip: \(detail)")
        case ZIP_ER_INCONS, ZIP_ER_EOF, ZIP_ER_READ, ZIP_ER_CRC, ZIP_ER_SEEK, ZIP_ER_ZLIB:
            return .damaged(reason: "reading \(name), libzip: \(detail)")
        default:
            return .libraryFailure(operation: "reading \(name)", detail: detail)
        }
    }
}
