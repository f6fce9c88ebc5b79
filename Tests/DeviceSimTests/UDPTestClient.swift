import DFUCore
import DeviceSim
import Testing
import Transport
import UDPTransport

/// A stop-and-wait SMP client of a `VirtualDeviceUDPServer`: a `UDPLink` from Transport, requests
/// encoded by DFUCore's packet types, each datagram received decoded as one whole SMP frame (one
/// packet per datagram). Waits are bounded, never slept: a missing reply is nil after `limit`.
/// The default limit only turns a hang into a failure: in the parallel suite a busy machine can
/// hold a healthy reply back for tens of seconds.
actor UDPTestClient {
    let link: UDPLink
    private var frames: [SMPFrame] = []
    private var waiters: [UInt64: (sequence: UInt8, continuation: CheckedContinuation<SMPFrame?, Never>)] = [:]
    private var nextWaiter: UInt64 = 0
    private var sequence: UInt8 = 0
    /// Datagrams that were not one valid SMP frame.
    private(set) var undecodable = 0

    /// A client on its own UDP port (the kernel picks it), so two clients are two senders.
    init(_ server: SocketAddress, maxDatagramSize: Int = UDPLink.defaultMaxDatagramSize) throws {
        link = try UDPLink.connect(to: server, presenting: .smp, maxDatagramSize: maxDatagramSize)
    }

    /// Starts reading replies; call once after init.
    func start() {
        let events = link.events
        Task {
            for await event in events {
                if case .notification(_, let bytes) = event.kind { self.deliver(bytes) }
            }
        }
    }

    static func connect(_ server: SocketAddress, maxDatagramSize: Int = UDPLink.defaultMaxDatagramSize)
        async throws -> UDPTestClient {
        let client = try UDPTestClient(server, maxDatagramSize: maxDatagramSize)
        await client.start()
        return client
    }

    func nextSequence() -> UInt8 {
        sequence &+= 1
        return sequence
    }

    /// Sends a typed request and decodes its reply; fails the test when none comes within `limit`.
    func call<R: SMPRequest>(_ request: R, within limit: Duration = .seconds(60)) async throws -> Result<R.Response, SMPError> {
        let packet = request.packet(sequence: nextSequence())
        let frame = try #require(await send(try packet.encoded(), awaiting: packet.header.sequence, within: limit),
                                 "no reply to \(packet.header)")
        return try R.Response.decodeResponse(try SMPPacket(frame: frame).body)
    }

    /// Sends raw bytes as one datagram and waits for the frame answering `sequence`.
    func send(_ bytes: [UInt8], awaiting sequence: UInt8, within limit: Duration = .seconds(60)) async throws -> SMPFrame? {
        try await link.writeWithoutResponse(bytes, to: DatagramGATTFace.smp.characteristic)
        return await frame(sequence: sequence, within: limit)
    }

    /// The first unclaimed frame with `sequence`, waiting at most `limit`.
    func frame(sequence: UInt8, within limit: Duration) async -> SMPFrame? {
        if let index = frames.firstIndex(where: { $0.header.sequence == sequence }) { return frames.remove(at: index) }
        nextWaiter += 1
        let id = nextWaiter
        return await withCheckedContinuation { continuation in
            waiters[id] = (sequence, continuation)
            Task {
                try? await Task.sleep(for: limit)
                self.expire(id)
            }
        }
    }

    func close() async {
        await link.disconnect()
    }

    private func deliver(_ bytes: [UInt8]) {
        guard let frame = try? SMPFrame(decoding: bytes) else {
            undecodable += 1
            return
        }
        if let (id, waiter) = waiters.first(where: { $0.value.sequence == frame.header.sequence }) {
            waiters[id] = nil
            waiter.continuation.resume(returning: frame)
        } else {
            frames.append(frame)
        }
    }

    private func expire(_ id: UInt64) {
        waiters.removeValue(forKey: id)?.continuation.resume(returning: nil)
    }
}
