#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SystemCall {
    /// Reads a blocking `descriptor` until end of file or until `capacity` bytes have come, again
    /// after EINTR and short reads: the one loop behind the files dfu is given and its journal. A
    /// caller that must tell a file of exactly `capacity` bytes from a longer one asks for one more.
    package static func readAll(from descriptor: Int32, upTo capacity: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: capacity)
        var filled = 0
        while filled < capacity {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "read", code: errno)
            }
            if count == 0 { break }
            filled += count
        }
        return Array(bytes.prefix(filled))
    }
}
