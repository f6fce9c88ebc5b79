import DBusBinding

/// What a failed `Device1.Pair` means (doc/device-api.txt's errors; bluez-dbus.md §9 for what 5.66
/// answers): already paired is success; a busy controller or a connection that did not come up is
/// worth another try; the rest ends the connect with the reason in words.
enum BlueZPairOutcome: Equatable, Sendable {
    case alreadyPaired
    case retry(String)
    case failed(String)
    /// The stack itself went away or refused us (bus, bluetoothd, policy).
    case unavailable(BlueZError)

    init(_ error: DBusError) {
        let bluez = "org.bluez.Error."
        let name: String?
        switch error {
        case .remote(let remote, _), .library(let remote, _): name = remote
        default: name = nil
        }
        switch name {
        case bluez + "AlreadyExists":
            self = .alreadyPaired
        case bluez + "AuthenticationFailed":
            self = .failed("the passkey was wrong or the device refused it (org.bluez.Error.AuthenticationFailed)")
        case bluez + "AuthenticationRejected":
            self = .failed("the pairing was rejected (org.bluez.Error.AuthenticationRejected)")
        case bluez + "AuthenticationCanceled":
            self = .failed("the pairing was cancelled (org.bluez.Error.AuthenticationCanceled)")
        case bluez + "AuthenticationTimeout":
            self = .failed("the pairing timed out: no answer to the passkey request (org.bluez.Error.AuthenticationTimeout)")
        case bluez + "ConnectionAttemptFailed":
            self = .retry("the device could not be connected for pairing (org.bluez.Error.ConnectionAttemptFailed)")
        case bluez + "InProgress":
            self = .retry("another pairing with the device is in progress")
        default:
            switch BlueZFailure(error, context: .connect) {
            case .bluetoothdGone: self = .unavailable(.bluetoothdNotRunning)
            case .accessDenied(let text): self = .unavailable(.accessDenied(text))
            case .busLost: self = .unavailable(.busUnavailable(error.description))
            case .notReady: self = .unavailable(.adapterPoweredOff("the adapter"))
            case .retryableConnect(let text): self = .retry(text)
            case .timedOut: self = .failed("bluetoothd did not answer Pair in time")
            default: self = .failed(error.description)
            }
        }
    }
}
