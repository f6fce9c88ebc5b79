import ArgumentParsing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import Transport

/// `--report FILE`: the batch's JSON lines (one per device as it ends, then the summary). Each
/// time a line comes the whole report is written to a new file beside FILE and renamed over it,
/// so FILE always holds whole lines (a station that loses power keeps the devices that ended) and
/// a reader never sees it half written. FILE is never the plan (the same file by any name: device
/// and inode compared), and a file there that is not a dfu batch report is replaced only with
/// `--force`.
final class BatchReportFile: Sendable {
    /// Where the lines go: FILE, or the file its symbolic link names (the link stays).
    let path: String
    private let state = Mutex(State())

    private struct State {
        var lines: [String] = []
        /// The first write that failed, said once.
        var failed = false
    }

    /// Checks `path` (against `plan`, the batch's PLAN argument) and replaces it with an empty
    /// report, so no earlier report can be mistaken for this batch's.
    init(path: String, plan: String, force: Bool) throws(UsageError) {
        guard let target = Self.followingLinks(path) else {
            throw UsageError("--report \(path) is a symbolic link that cannot be followed; give the file itself")
        }
        var report = stat()
        if stat(target, &report) == 0 {
            var planStatus = stat()
            if stat(plan, &planStatus) == 0, planStatus.st_dev == report.st_dev, planStatus.st_ino == report.st_ino {
                throw UsageError("--report \(path) is the plan \(plan) itself; give another file for the report")
            }
            guard report.st_mode & S_IFMT == S_IFREG else {
                throw UsageError("--report \(path) is not a regular file; give a file for the report")
            }
            if !force, !Self.isBatchReport(target) {
                throw UsageError("--report \(path) exists and is not a dfu batch report (its first line is not one); "
                                 + "give another file, or add --force to replace it")
            }
        }
        self.path = target
        if let failure = Self.replace(target, with: "") { throw UsageError("cannot write the report \(path): \(failure)") }
    }

    /// Adds `line` and rewrites the report; a warning the first time writing fails, else nil.
    func write(_ line: String) -> String? {
        state.withLock { state in
            state.lines.append(line)
            guard let failure = Self.replace(path, with: state.lines.map { $0 + "\n" }.joined()) else { return nil }
            defer { state.failed = true }
            return state.failed ? nil : "cannot write the report \(path): \(failure); the batch goes on"
        }
    }

    /// The file `path` names once its symbolic links are followed (that file need not exist yet,
    /// so the report can be written there and the link stays); nil for a loop of links.
    static func followingLinks(_ path: String) -> String? {
        var target = path
        for _ in 0 ..< 40 {
            var status = stat()
            guard lstat(target, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return target }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(target, &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            let destination = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if destination.hasPrefix("/") {
                target = destination
            } else {
                let directory = target.lastIndex(of: "/").map { String(target[...$0]) } ?? ""
                target = directory + destination
            }
        }
        return nil
    }

    /// Whether `path` is empty or starts with a line dfu batch writes: a `device` or `result` line
    /// of its JSON (`"event"` then `"schema"` first, as every dfu JSON line).
    static func isBatchReport(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return false }
        let head = String(decoding: bytes.prefix(count), as: UTF8.self)
        return count == 0 || ["device", "result"].contains { head.hasPrefix(#"{"event":"\#($0)","schema":"#) }
    }

    /// Writes `text` to a new file in `path`'s directory, flushes it and renames it over `path`;
    /// the reason when that fails (the new file is then removed).
    private static func replace(_ path: String, with text: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).dfu-\(getpid()).tmp"
        // 0644: a report names devices and versions, nothing secret.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { return reason(errno) }
        var failure: String?
        if let code = SystemCall.writeAll(text, to: descriptor) {
            failure = reason(code)
        } else if fsync(descriptor) != 0 {
            failure = reason(errno)
        }
        _ = close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = reason(errno) }
        if failure != nil { _ = unlink(temporary) }
        return failure
    }

    private static func reason(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
