import DFUCore
import Transport

/// What a `VirtualDeviceUDPServer` reports as it serves: the device's life (boots, uploads, faults),
/// which `dfu sim` always prints, and each datagram in and out, which it prints with `--verbose`.
/// Reports only; nothing is decided from them.
public enum UDPServerEvent: Sendable, Hashable, CustomStringConvertible {
    /// A datagram reached the device. `header` is its first SMP header, when it has a valid one.
    case received(size: Int, from: SocketAddress, header: SMPHeader?)
    /// A datagram longer than the transport's receive buffer was cut, as `recvfrom` into
    /// smp_udp.c's `CONFIG_MCUMGR_TRANSPORT_UDP_MTU` buffer cuts it; the SMP layer then sees a
    /// short packet.
    case truncated(size: Int, limit: Int, from: SocketAddress)
    /// A datagram arrived while the device was resetting or booting: nobody received it.
    case ignoredWhileDown(size: Int, from: SocketAddress)
    /// A reply left.
    case replied(size: Int, to: SocketAddress, header: SMPHeader?)
    /// A reply could not be sent (the kernel refused it); the server carries on.
    case replyFailed(to: SocketAddress, reason: String)
    /// The device threw something away without a reply (no buffer, a request of a dropped link…).
    case dropped(SMPDrop)
    case uploadStarted(length: Int, from: SocketAddress?)
    /// The last byte of an upload was written; `image` is what slot 1 now holds, if it parses.
    case uploadCompleted(length: Int, image: SlotImage?)
    /// A reset lost the upload session at `offset`.
    case uploadLost(offset: Int, length: Int)
    /// The device went down (reset command, reboot fault): what MCUboot did, and for how long the
    /// device stays unreachable.
    case rebooting(BootReport)
    /// The device runs again after boot number `boot` (1 is the power-on boot at start).
    case online(running: SlotImage?, boot: Int)
    case faultInjected(SimFault)

    /// Whether `dfu sim` prints it without `--verbose`: the device's life, not its traffic.
    public var isLifecycle: Bool {
        switch self {
        case .uploadStarted, .uploadCompleted, .uploadLost, .rebooting, .online, .faultInjected, .replyFailed:
            return true
        case .received, .truncated, .ignoredWhileDown, .replied, .dropped:
            return false
        }
    }

    public var description: String {
        switch self {
        case .received(let size, let sender, let header):
            return "← \(sender) \(size) bytes" + (header.map { ": \($0)" } ?? " (no valid SMP header)")
        case .truncated(let size, let limit, let sender):
            return "cut a \(size)-byte datagram from \(sender) to \(limit) bytes (the UDP transport's receive buffer)"
        case .ignoredWhileDown(let size, let sender):
            return "ignored a \(size)-byte datagram from \(sender): the device is resetting"
        case .replied(let size, let receiver, let header):
            return "→ \(receiver) \(size) bytes" + (header.map { ": \($0)" } ?? "")
        case .replyFailed(let receiver, let reason):
            return "could not send a reply to \(receiver): \(reason)"
        case .dropped(let drop):
            return drop.description
        case .uploadStarted(let length, let sender):
            return "upload started: \(length) bytes" + (sender.map { " from \($0)" } ?? "")
        case .uploadCompleted(let length, let image):
            let holds = image.map { ", slot 1 holds \($0.version) (hash \(Self.shortHex($0.hash)))" } ?? ""
            return "upload complete: \(length) bytes\(holds)"
        case .uploadLost(let offset, let length):
            return "upload session lost at \(offset) of \(length) bytes"
        case .rebooting(let report):
            return "resetting: \(report)"
        case .online(let running, let boot):
            return "up again (boot \(boot)), running \(running.map(\.version.description) ?? "no valid image")"
        case .faultInjected(let fault):
            return "fault injected: \(fault)"
        }
    }

    /// The first 8 bytes in hex and an ellipsis: enough to tell images apart in a log.
    static func shortHex(_ bytes: [UInt8]) -> String {
        let digits = hexString(bytes.prefix(8))
        return bytes.count > 8 ? digits + "…" : digits
    }
}
