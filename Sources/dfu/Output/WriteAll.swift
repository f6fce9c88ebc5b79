#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes all of `text` to `descriptor`, again after EINTR and short writes: the one loop behind the
/// console, the pairing prompt's tty and the batch report file. Returns the errno of a write that
/// failed (EPIPE or a closed descriptor: nobody is reading any more), else nil.
@discardableResult
func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { bytes -> Int32? in
        guard var pointer = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            pointer += written
            remaining -= written
        }
        return nil
    }
}
