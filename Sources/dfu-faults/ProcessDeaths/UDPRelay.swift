import DFUCore
import Synchronization
import Transport
import UDPTransport

/// A relay on 127.0.0.1 between a `dfu` the campaign runs and the virtual device's UDP server,
/// that counts the image data of every SMP upload request passing through (what `CountingLink`
/// counts in process): the wire is the one place a dying process's sends can be counted exactly.
///
/// Each sender gets a socket of its own towards the server, so the device answers each `dfu` (a
/// killed one, the one run after it) at its own address, as it would without the relay: the late
/// replies to a killed process go to its closed port, never to the next one's. Datagrams pass
/// unchanged and in order.
final class UDPRelay: Sendable {
    /// Where `dfu --device udp:…` is pointed.
    var address: SocketAddress { front.localAddress }

    private let front: UDPServerSocket
    private let server: SocketAddress
    private let onUpload: @Sendable (Int) -> Void
    private let routes = Mutex<[SocketAddress: UDPServerSocket]>([:])
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// `onUpload` gets the data bytes of each upload request, in order, before it is passed on.
    private init(front: UDPServerSocket, server: SocketAddress, onUpload: @escaping @Sendable (Int) -> Void) {
        self.front = front
        self.server = server
        self.onUpload = onUpload
    }

    static func start(to server: SocketAddress, onUpload: @escaping @Sendable (Int) -> Void) throws(FaultsError) -> UDPRelay {
        let front: UDPServerSocket
        do throws(UDPSocketError) {
            front = try UDPServerSocket.bind(to: .loopbackV4(port: 0))
        } catch {
            throw .setup("cannot bind the relay to the device: \(error)")
        }
        let relay = UDPRelay(front: front, server: server, onUpload: onUpload)
        relay.keep(Task { await relay.forwardRequests() })
        return relay
    }

    /// Closes every socket; the relay passes nothing more.
    func stop() async {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        await front.close()
        for socket in routes.withLock({ Array($0.values) }) { await socket.close() }
    }

    private func keep(_ task: Task<Void, Never>) {
        tasks.withLock { $0.append(task) }
    }

    private func forwardRequests() async {
        for await datagram in front.datagrams {
            if let data = Self.uploadData(in: datagram.bytes) { onUpload(data) }
            guard let route = route(for: datagram.sender) else { continue }
            // A send that fails is a datagram lost on the way, which UDP allows.
            try? await route.send(datagram.bytes, to: server)
        }
    }

    /// The sender's own socket towards the server, made at its first datagram.
    private func route(for sender: SocketAddress) -> UDPServerSocket? {
        if let known = routes.withLock({ $0[sender] }) { return known }
        guard let socket = try? UDPServerSocket.bind(to: .loopbackV4(port: 0)) else { return nil }
        routes.withLock { $0[sender] = socket }
        keep(Task { [front] in
            for await reply in socket.datagrams {
                try? await front.send(reply.bytes, to: sender)
            }
        })
        return socket
    }

    /// The image data an SMP image upload request carries; nil for any other datagram.
    static func uploadData(in bytes: [UInt8]) -> Int? {
        guard let packet = try? SMPPacket(decoding: bytes), packet.header.op == .write, packet.header.group == .image,
              packet.header.command == ImageMgmtCommand.upload.rawValue,
              let request = try? ImageUploadRequest(body: packet.body) else { return nil }
        return request.data.count
    }
}
