import DFUCore

/// What the Nordic serial server did, for `dfu sim`'s log (one line each).
public enum NordicSerialServerEvent: Sendable, Equatable, CustomStringConvertible {
    case received(NordicSerialRequest)
    /// A frame that is no request the bootloader can read (answered as the SDK would).
    case receivedUnreadable(size: Int)
    case replied([UInt8])
    /// Bytes from the client the decoder threw away.
    case inputDropped(String)
    /// Bytes that arrived while nothing on the device reads the line.
    case ignored(size: Int, while: String)
    case packetDropped(NordicPacketDrop)
    case linkDropped(NordicLinkDrop)
    case resetting(NordicResetCause)
    /// Power removed and restored (`NordicSerialServer.powerCycle`), with the DFU button held or not.
    case powerCycled(enterBootloader: Bool)
    /// Up again: what runs now.
    case online(boot: Int, running: String)
    case portVanished
    case portBack
    case portFailed(String)
    /// A `cp_fault=` fault fired on the answer that follows (`--cp-fault`).
    case faultInjected(NordicNotificationFault)

    /// Whether `dfu sim` prints it without `--verbose`.
    public var isLifecycle: Bool {
        switch self {
        case .linkDropped, .resetting, .powerCycled, .online, .portVanished, .portBack, .portFailed, .faultInjected: return true
        case .received, .receivedUnreadable, .replied, .inputDropped, .ignored, .packetDropped: return false
        }
    }

    public var description: String {
        switch self {
        case .received(let request): return "← \(request)"
        case .receivedUnreadable(let size): return "← a \(size)-byte frame that is no request"
        case .replied(let bytes): return "→ " + Self.describe(answer: bytes)
        case .inputDropped(let reason): return "input dropped: \(reason)"
        case .ignored(let size, let state): return "\(size) bytes ignored: \(state)"
        case .packetDropped(let drop): return "the bootloader dropped a Write Object: \(drop)"
        case .linkDropped(let point): return "the bootloader drops the line (drop=\(point))"
        case .resetting(let cause): return "the bootloader resets: \(Self.describe(cause))"
        case .powerCycled(let enterBootloader):
            return "power cycled" + (enterBootloader ? " with the DFU button held" : "")
        case .online(let boot, let running): return "up again (boot \(boot)), running \(running)"
        case .portVanished: return "port vanished (the USB device resets)"
        case .portBack: return "port back"
        case .portFailed(let reason): return "cannot open the port again: \(reason)"
        case .faultInjected(let fault): return "fault injected: cp_fault=\(fault)"
        }
    }

    private static func describe(answer bytes: [UInt8]) -> String {
        do throws(NordicSerialWireError) {
            return try NordicSerialResponse(decoding: bytes).description
        } catch {
            return "\(bytes.count) bytes (\(error))"
        }
    }

    static func describe(_ cause: NordicResetCause) -> String {
        switch cause {
        case .updated(let type, let version):
            return "\(String(describing: type).lowercased()) activated" + (version.map { " (fw_version \($0))" } ?? "")
        case .validationFailed(let result): return "the final check failed (\(result)); the old application boots"
        case .aborted: return "aborted by the client"
        case .inactivity: return "no DFU activity until the inactivity timeout"
        }
    }
}
