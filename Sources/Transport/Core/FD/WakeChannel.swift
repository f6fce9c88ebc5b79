#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Wakes a thread blocked in `SystemCall.waitForReadiness` from any other thread: a non-blocking
/// Unix datagram socket pair (eventfd and pipe2 need `_GNU_SOURCE`, which Swift's Glibc module
/// lacks). A value: its owner closes it once, when no thread can wait on or signal it any more.
package struct WakeChannel: Sendable {
    /// The end a waiting thread polls.
    package let watch: Int32
    /// The end other threads signal.
    package let signal: Int32

    package static func open() throws(SystemCallError) -> WakeChannel {
        #if canImport(Glibc)
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC
        #endif
        var ends: [Int32] = [-1, -1]
        _ = try SystemCall.immediate("socketpair") { socketpair(AF_UNIX, type, 0, &ends) }
        return WakeChannel(watch: ends[0], signal: ends[1])
    }

    /// Signals the channel. A full channel already holds a wake-up, so would-block is success.
    package func wake() {
        var byte: UInt8 = 1
        _ = try? SystemCall.syscall("send") { send(signal, &byte, 1, Int32(MSG_NOSIGNAL)) }
    }

    /// Empties the channel, so the next wait blocks until the next `wake`.
    package func clear() {
        var bytes = [UInt8](repeating: 0, count: 64)
        let size = bytes.count
        while case .done(let count)? = try? SystemCall.syscall("recv", { recv(watch, &bytes, size, 0) }), count > 0 {}
    }

    package func close() {
        SystemCall.closeDescriptor(watch)
        SystemCall.closeDescriptor(signal)
    }
}
