/// Why a link operation failed. The link failed or refused; never the firmware (Transport knows
/// none). Each `description` says what happened and what to try.
public enum LinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The connection is gone (or went while the operation waited). Nothing waiting was sent.
    case disconnected(DisconnectReason)
    /// A `Connector` could not reach the device before its deadline.
    case timeout
    /// The backend has never seen this device.
    case peerNotFound(PeerIdentity)
    /// The device has no characteristic with this UUID.
    case characteristicNotFound(CharacteristicID)
    /// The characteristic exists but does not allow the operation (`missing` names what it lacks).
    case notSupported(CharacteristicID, missing: CharacteristicProperties)
    /// A notification was sent on a characteristic the central has not subscribed to.
    case notSubscribed(CharacteristicID)
    /// The value is longer than one ATT PDU of this connection may carry.
    case payloadTooLarge(size: Int, limit: Int)
    /// The device answered the request with an ATT error.
    case rejected(CharacteristicID, ATTError)
    /// The calling task was cancelled before the operation was sent.
    case cancelled
    /// `count` devices answer to `peer` (a `sole-name:` peer: one device advertising a name that
    /// others use too); which one is meant cannot be told, so none is chosen.
    case ambiguous(PeerIdentity, count: Int)
    /// The platform's own error, e.g. a BlueZ `org.bluez.Error.Failed: …` name and message.
    case backend(String)
    /// The Bluetooth stack itself cannot be used (adapter powered off, bluetoothd gone, access
    /// denied): retrying cannot help until the user acts. The text says what happened and the fix.
    case unavailable(String)
    /// The device needs a more secure link than could be set up (pairing required and no way to
    /// pair given, pairing failed, Just Works where authentication is needed). Retrying as it is
    /// cannot help.
    case security(SecurityFailure)

    public var description: String {
        switch self {
        case .disconnected(let reason):
            // Every backend's words: a Bluetooth link, a UDP socket, a serial port that went away.
            return "the link to the device is down: \(reason). Check that it is powered and connected (in range, its port "
                + "or cable present), and retry; an interrupted update resumes."
        case .timeout:
            return "the device could not be reached in time. Check that it is powered, advertising and in range, then retry."
        case .peerNotFound(let peer):
            return "no device \(peer.redacted) is known. Check the address or id and that the device is advertising."
        case .characteristicNotFound(let id):
            return "the device has no characteristic \(id). Check that it runs firmware with the expected update service."
        case .notSupported(let id, let missing):
            return "characteristic \(id) does not allow \(missing). The device's GATT layout differs from what dfu expects; check its firmware."
        case .notSubscribed(let id):
            return "notifications on \(id) are not enabled by the central; subscribe first."
        case .payloadTooLarge(let size, let limit):
            return "a \(size)-byte value does not fit this connection (at most \(limit) bytes). This is a bug in the caller: split the value by the link's limit."
        case .rejected(let id, let error):
            return "the device refused the request on \(id): \(error). Check that the device is unlocked/paired as its firmware requires."
        case .cancelled:
            return "the operation was cancelled before it was sent."
        case .ambiguous(let peer, let count):
            let name = peer.rawValue.split(separator: ":", maxSplits: 1).last.map(String.init) ?? peer.rawValue
            return "\(count) devices in range advertise as \(name); dfu will not guess which one is meant. Update one "
                + "device at a time, or move the others out of range, then retry."
        case .unavailable(let message):
            return message
        case .security(let failure):
            return failure.description
        case .backend(let message):
            return "the Bluetooth stack reported: \(message). Check that bluetoothd is running and the adapter is powered, then retry."
        }
    }
}
