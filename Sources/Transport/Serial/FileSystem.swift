#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// The few path calls the serial backend makes on `/dev` and `/sys` (Transport imports no
/// Foundation): resolve links, list a folder, read a small attribute file, find a node's group,
/// and place or remove a symbolic link. Each answers nil or false rather than trap when a path
/// vanishes between two calls, as device nodes do while a board re-enumerates.
enum FileSystem {
    /// What `lstat` says a path is (the link itself, not what it points to).
    enum Kind: Equatable {
        case symbolicLink, directory, characterDevice, regularFile, other
    }

    /// The path with every symbolic link, `.` and `..` resolved (realpath(3)); nil when a part is missing.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What the path is, without following a final link; nil when there is nothing there.
    static func kind(of path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .symbolicLink
        case S_IFDIR: return .directory
        case S_IFCHR: return .characterDevice
        case S_IFREG: return .regularFile
        default: return .other
        }
    }

    /// Whether the path leads somewhere, following links (a dangling link does not).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The names in a folder, without `.` and `..`, sorted; empty when it cannot be read.
    static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// A small text file's content without trailing white space (a sysfs attribute such as
    /// `idVendor`); nil when it cannot be read.
    static func readText(_ path: String, limit: Int = 4096) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { SystemCall.closeDescriptor(descriptor) }
        guard let bytes = try? SystemCall.readAll(from: descriptor, upTo: limit) else { return nil }
        var text = String(decoding: bytes, as: UTF8.self)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }

    /// The name of the group that owns the node `path` leads to (stat(2), getgrgid_r(3)); nil when
    /// either lookup fails.
    static func groupName(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var group = group()
        var found: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getgrgid_r(info.st_gid, &group, &buffer, buffer.count, &found)
        guard status == 0, found != nil, let name = group.gr_name else { return nil }
        return String(cString: name)
    }

    /// Why `placeSymbolicLink` did not place the link.
    enum PlaceLinkFailure: Error {
        /// Something that is not a symbolic link is at the path; it is left alone.
        case occupied
        case system(SystemCallError)
    }

    /// Makes `path` a symbolic link to `target`, replacing an existing link in one step (a link
    /// made beside it, then renamed over it, so a reader never sees the path missing). Refuses to
    /// replace anything that is not a link.
    static func placeSymbolicLink(at path: String, to target: String) throws(PlaceLinkFailure) {
        if let kind = kind(of: path), kind != .symbolicLink { throw .occupied }
        let temporary = "\(path).\(getpid()).new"
        _ = unlink(temporary)
        do throws(SystemCallError) {
            _ = try SystemCall.immediate("symlink") { symlink(target, temporary) }
            do throws(SystemCallError) {
                _ = try SystemCall.immediate("rename") { rename(temporary, path) }
            } catch {
                _ = unlink(temporary)
                throw error
            }
        } catch {
            throw .system(error)
        }
    }

    /// The target of the symbolic link at `path`, as stored (readlink(2)); nil when it is none.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes the symbolic link at `path` if it still points to `target` (a newer one made by
    /// someone else stays).
    static func removeSymbolicLink(at path: String, ifPointingTo target: String) {
        guard linkTarget(path) == target else { return }
        _ = unlink(path)
    }
}
