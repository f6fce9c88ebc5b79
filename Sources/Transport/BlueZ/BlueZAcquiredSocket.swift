#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DBusBinding
import Transport

/// The socket end bluetoothd hands out for `AcquireWrite` / `AcquireNotify`: AF_UNIX SOCK_SEQPACKET,
/// non-blocking, one ATT value per datagram (bluez-dbus.md §1.5).
///
/// Driven by an `FDPump`: notifications (≤ 1024 bytes each, more than the largest ATT value) reach
/// `deliver` in arrival order; the hang-up bluetoothd causes on link loss (POLLHUP / EOF, or EPIPE /
/// ECONNRESET / ENOTCONN from a call) ends the socket with `.hangUp`; a full socket buffer suspends
/// the sender (back-pressure), never sleeps, never drops.
final class BlueZAcquiredSocket: Sendable {
    enum Event: Sendable {
        case datagram([UInt8])
        /// The last event.
        case ended(End)
    }

    /// `.closed`: `close()` was called; `.hangUp`: bluetoothd closed its end, the link is gone.
    typealias End = FDPumpEnd
    /// Never `.refused`: one peer, so every send error ends the socket.
    typealias SendFailure = FDPumpSendFailure

    /// The ATT MTU bluetoothd reported with the fd.
    let mtu: Int
    private let pump: FDPump

    static let receiveBufferSize = 1024
    private static let policy = FDPumpPolicy(receiveBufferSize: receiveBufferSize,
                                             hangUpCodes: [EPIPE, ECONNRESET, ENOTCONN],
                                             emptyReadIsEndOfStream: true)

    private init(mtu: Int, pump: FDPump) {
        self.mtu = mtu
        self.pump = pump
    }

    /// Takes a private duplicate of `fd` (so closing ours is ours to decide; the caller drops its
    /// `DBusUnixFD`, and bluetoothd sees the release once every copy is closed) and starts the pump.
    static func adopt(_ fd: DBusUnixFD, mtu: Int, deliver: @escaping @Sendable (Event) -> Void)
        throws(SystemCallError) -> BlueZAcquiredSocket {
        let descriptor = try SystemCall.duplicateNonBlocking(fd.descriptor)
        let pump = try FDPump.start(owning: descriptor, policy: policy) { event in
            switch event {
            case .received(let bytes, _): deliver(.datagram(bytes))
            case .ended(let end): deliver(.ended(end))
            }
        }
        return BlueZAcquiredSocket(mtu: mtu, pump: pump)
    }

    var end: End? { pump.end }

    /// Bytes written that bluetoothd has not read yet; nil once the socket ended.
    var unreadByBluetoothd: Int? { pump.unreadByPeer }

    /// Ends the socket (queued sends fail with `.ended(.closed)`); the pump closes the fd.
    func close() {
        pump.close()
    }

    /// Sends one datagram; suspends while the socket buffer is full; sends leave in call order.
    func send(_ bytes: [UInt8]) async -> Result<Void, SendFailure> {
        await pump.send(bytes)
    }
}
