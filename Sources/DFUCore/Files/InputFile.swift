#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// Reads a whole input file (an image, a key, a plan) into memory, refusing what cannot be one:
/// directories, devices, pipes, and files larger than the caller takes. One reader, so every file
/// dfu is given fails in the same words (`InputFileProblem`).
public enum InputFile {
    /// `what` names the file in a size refusal ("an image", "a key file").
    public static func load(path: String, limit: Int, what: String) throws(InputFileProblem) -> [UInt8] {
        // A FIFO blocks here until a writer opens it, as `cat` would.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputFileProblem(call: "open", errno: errno) }
        defer { _ = close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw InputFileProblem(call: "fstat", errno: errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .directory
        case S_IFCHR, S_IFBLK: throw .notAFile("a device")
        case S_IFIFO: throw .notAFile("a pipe")
        case S_IFSOCK: throw .notAFile("a socket")
        default: throw .notAFile("a special file")
        }
        let size = Int(status.st_size)
        guard size <= limit else { throw .tooLarge(size: size, limit: limit, what: what) }

        // A file that shrank while it was read gives what is there.
        do {
            return try SystemCall.readAll(from: descriptor, upTo: size)
        } catch {
            throw InputFileProblem(call: error.call, errno: error.code)
        }
    }
}
