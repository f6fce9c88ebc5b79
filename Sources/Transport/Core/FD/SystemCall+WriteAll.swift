#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SystemCall {
    /// Writes all of `bytes` to a blocking `descriptor` (stdout, stderr, a tty, a regular file),
    /// again after EINTR and short writes: the one loop behind dfu's console, its pairing prompt and
    /// batch report file, the journal's file and the measuring tools' stderr lines. Returns the
    /// errno of a write that failed (EPIPE or a closed descriptor: nobody is reading any more), else
    /// nil; a write that took nothing is EIO.
    @discardableResult
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard var pointer = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            pointer += written
            remaining -= written
        }
        return nil
    }

    /// `text`'s UTF-8, as `writeAll(_:to:)` above.
    @discardableResult
    package static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// `bytes`, as `writeAll(_:to:)` above.
    @discardableResult
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }
}
