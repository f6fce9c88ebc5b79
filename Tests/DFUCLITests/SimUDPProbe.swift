import DFUCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One SMP request to a `dfu sim` on 127.0.0.1 over a plain UDP socket, and its reply: enough to
/// show the port in the ready line is the server's (the CLI tests do not link Transport).
enum SimUDPProbe {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends `request` to 127.0.0.1:`port` and decodes the reply (waiting at most `timeout` ms).
    static func call<R: SMPRequest>(_ request: R, port: UInt16, timeout: Int32 = 5000) throws -> Result<R.Response, SMPError> {
        let packet = try request.packet(sequence: 42).encoded()
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(descriptor, packet, packet.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard sent == packet.count else { throw Failure(description: "sendto: errno \(errno)") }
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, timeout) == 1 else { throw Failure(description: "no reply within \(timeout) ms") }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { throw Failure(description: "recv: errno \(errno)") }
        let reply = try SMPPacket(decoding: Array(buffer.prefix(count)))
        guard reply.header.sequence == 42 else { throw Failure(description: "reply to another request: \(reply.header)") }
        return try R.Response.decodeResponse(reply.body)
    }
}
