import DFUCore
import Transport

/// What a `BlueZPeripheral` reports as it serves: the device's life (centrals coming and going,
/// uploads, resets, boots, faults, advertising), which `dfu sim` always prints, and each write and
/// notification, which it prints with `--verbose`. Reports only; nothing is decided from them.
/// Central addresses are shortened (`…:EE:FF`) unless `fullAddresses` is set by the caller's
/// formatting (`description(fullAddresses:)`).
public enum BlueZPeripheralEvent: Sendable, Hashable, CustomStringConvertible {
    /// A central connected (its Device1 object under our adapter).
    case centralConnected(PeerIdentity)
    case centralDisconnected(PeerIdentity)
    /// A second central connected while the device serves another: it is not served.
    case centralIgnored(PeerIdentity)
    /// The first call from a central that carried its ATT MTU (bluetoothd exports no MTU on the
    /// peripheral side), and the notification size that follows from it.
    case mtu(PeerIdentity, Int, notificationSize: Int)
    /// A write reached the device; `detail` is what the model makes of it (an SMP header when the
    /// write starts with a valid one: a write may continue a packet).
    case written(size: Int, detail: String?)
    /// A notification left (a PropertiesChanged of `Value`).
    case notified(size: Int, detail: String?)
    /// A reply was not sent: the central had not subscribed, or its link is gone.
    case notificationLost(size: Int, reason: String)
    case read(CharacteristicID, size: Int)
    /// The device threw something away without a reply.
    case dropped(SMPDrop)
    case uploadStarted(length: Int)
    case uploadCompleted(length: Int, image: SlotImage?)
    case uploadLost(offset: Int, length: Int)
    case rebooting(BootReport)
    case online(running: SlotImage?, boot: Int)
    case faultInjected(SimFault)
    /// The device dropped the link (reset, or a disconnect fault): Device1.Disconnect was called.
    case disconnecting(PeerIdentity, reason: String)
    /// The application and advertisement are registered again after a boot.
    /// `adapter`: set when it is not the adapter served first (a bootloader on its own adapter).
    case advertising(name: String, adapter: String? = nil)
    /// bluetoothd released the advertisement by itself (it no longer advertises).
    case advertisementReleased
    /// A call to bluetoothd failed; the server carries on.
    case bluezCallFailed(operation: String, reason: String)
    /// The device's agent answered (or refused) a pairing request; never the passkey.
    case pairing(String)
    /// A step in the device's life in the model's own words (a Nordic bootloader's reset).
    case lifecycle(String)
    /// A detail of the traffic in the model's own words (a packet the bootloader dropped).
    case traffic(String)

    /// Whether `dfu sim` prints it without `--verbose`: the device's life, not its traffic.
    public var isLifecycle: Bool {
        switch self {
        case .written, .notified, .notificationLost, .read, .dropped, .traffic:
            return false
        default:
            return true
        }
    }

    public var description: String { description(fullAddresses: false) }

    public func description(fullAddresses: Bool) -> String {
        func show(_ central: PeerIdentity) -> String { fullAddresses ? central.rawValue : central.redacted }
        switch self {
        case .centralConnected(let central):
            return "central \(show(central)) connected"
        case .centralDisconnected(let central):
            return "central \(show(central)) disconnected"
        case .centralIgnored(let central):
            return "central \(show(central)) connected but is not served: the device serves one central at a time"
        case .mtu(let central, let mtu, let notificationSize):
            let writes = CentralTracker.writeSize(mtu: mtu)
            var line = "central \(show(central)): ATT MTU \(mtu), writes up to \(writes) bytes, "
                + "notifications up to \(notificationSize) bytes"
            if writes > CentralTracker.largestValue {
                // bluetoothd up to 5.68 drops longer values without an error (reference §8).
                line += "; warning: writes over \(CentralTracker.largestValue) bytes are lost by bluetoothd up to 5.68, "
                    + "so a client that fills the MTU never gets an answer: set ExchangeMTU=498 in the [GATT] "
                    + "section of /etc/bluetooth/main.conf and restart bluetoothd (docs/bluez.md)"
            }
            return line
        case .written(let size, let detail):
            return "← \(size) bytes" + (detail.map { ": \($0)" } ?? "")
        case .notified(let size, let detail):
            return "→ \(size) bytes" + (detail.map { ": \($0)" } ?? "")
        case .notificationLost(let size, let reason):
            return "a \(size)-byte notification was not sent: \(reason)"
        case .read(let characteristic, let size):
            return "read of \(characteristic): \(size) bytes"
        case .dropped(let drop):
            return drop.description
        case .uploadStarted(let length):
            return "upload started: \(length) bytes"
        case .uploadCompleted(let length, let image):
            let holds = image.map { ", slot 1 holds \($0.version) (hash \(UDPServerEvent.shortHex($0.hash)))" } ?? ""
            return "upload complete: \(length) bytes\(holds)"
        case .uploadLost(let offset, let length):
            return "upload session lost at \(offset) of \(length) bytes"
        case .rebooting(let report):
            return "resetting: \(report)"
        case .online(let running, let boot):
            return "up again (boot \(boot)), running \(running.map(\.version.description) ?? "no valid image")"
        case .faultInjected(let fault):
            return "fault injected: \(fault)"
        case .disconnecting(let central, let reason):
            return "dropping the link to \(show(central)) (\(reason))"
        case .advertising(let name, let adapter):
            return "advertising again as \(name)" + (adapter.map { " on \($0), at that adapter's address" } ?? "")
        case .advertisementReleased:
            return "bluetoothd released the advertisement: the device is no longer advertised"
        case .bluezCallFailed(let operation, let reason):
            return "\(operation) failed: \(reason)"
        case .pairing(let what), .lifecycle(let what), .traffic(let what):
            return what
        }
    }

    /// The central's address from its Device1 path (`…/dev_AA_BB_CC_DD_EE_FF`).
    static func central(at path: String) -> PeerIdentity {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        guard last.hasPrefix("dev_") else { return PeerIdentity(last) }
        return PeerIdentity(last.dropFirst(4).split(separator: "_", omittingEmptySubsequences: false).joined(separator: ":"))
    }
}
