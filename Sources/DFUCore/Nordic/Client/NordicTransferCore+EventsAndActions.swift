import Transport

/// What goes into a `NordicTransferCore` (`Event`, through `handle(_:now:)`) and what comes out
/// (`Action`, for the driver to carry out in order).
extension NordicTransferCore {
    public enum Event: Sendable, Hashable {
        case start
        /// One notification value from the Control Point.
        case controlPointNotification([UInt8])
        /// The link accepted every packet of the oldest `writePackets` not yet reported (one event
        /// per `writePackets` action, in order).
        case packetsAccepted
        /// The link refused a Control Point write with this ATT error.
        case controlPointWriteRejected(attError: UInt8)
        /// The driver's timer went off (early is fine).
        case timerFired
        /// The link is down; nothing outstanding will be answered.
        case linkLost
        /// A new link to the bootloader is up, Control Point notifications enabled, with this
        /// packet size (`NordicTransferConfiguration.packetSize(attMTU:)`).
        case linkRestored(packetSize: Int)
    }

    public enum Action: Sendable, Hashable {
        /// Write these bytes to the Control Point with Write Request; the answer is a notification.
        case writeControlPoint([UInt8])
        /// Write each packet, in order, to the Packet characteristic with Write Without Response,
        /// waiting for the link to take each (back-pressure); then send `packetsAccepted` once.
        case writePackets([[UInt8]])
        /// Wake the core (`timerFired`) at this instant; nil cancels the wake-up.
        case timer(at: MonotonicInstant?)
        /// The device's verified count of firmware bytes changed.
        case progress(AcknowledgedProgress)
        /// The link is gone: connect to the bootloader again, enable Control Point notifications
        /// and send `linkRestored`. The core resumes with Select; the device's answer is the truth.
        case reconnect
        /// The firmware is transferred and executed: the bootloader validates and resets, so a
        /// disconnect follows and is not an error.
        case completed(NordicTransferCompletion)
        case failed(NordicTransferError)
    }
}

/// How sure the core is that the final Execute succeeded.
public enum NordicTransferCompletion: Sendable, Hashable {
    /// The bootloader answered success to the final Execute.
    case validated
    /// The link dropped while the final Execute was outstanding: the bootloader most likely
    /// validated and reset before its answer got out. Confirm the new version after reconnecting.
    case unconfirmed
}

extension NordicTransferCore.Event {
    /// For error messages: the case without its payload.
    var name: String {
        switch self {
        case .start: return "start"
        case .controlPointNotification: return "controlPointNotification"
        case .packetsAccepted: return "packetsAccepted"
        case .controlPointWriteRejected: return "controlPointWriteRejected"
        case .timerFired: return "timerFired"
        case .linkLost: return "linkLost"
        case .linkRestored: return "linkRestored"
        }
    }
}
