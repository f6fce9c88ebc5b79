@testable import BlueZTransport
@testable import DBusBinding
import Testing
@testable import Transport

/// What each BlueZ / D-Bus error becomes: for the user (`BlueZError`, one line with the fix) and
/// for the connector and link (`BlueZFailure`).
struct BlueZErrorTests {
    static func remote(_ name: String, _ message: String = "") -> DBusError {
        .remote(name: name, message: message)
    }

    @Test func busLevelErrorsBecomeTheirUserFacingCases() {
        #expect(BlueZError.from(Self.remote("org.freedesktop.DBus.Error.ServiceUnknown",
                                            "The name org.bluez was not provided by any .service files")) == .bluetoothdNotRunning)
        #expect(BlueZError.from(Self.remote("org.freedesktop.DBus.Error.NameHasNoOwner")) == .bluetoothdNotRunning)
        // D-Bus activation tried to start bluetoothd and it exited at once.
        #expect(BlueZError.from(Self.remote("org.freedesktop.DBus.Error.Spawn.ChildExited",
                                            "Process org.bluez exited with status 1")) == .bluetoothdNotRunning)
        guard case .accessDenied = BlueZError.from(Self.remote("org.freedesktop.DBus.Error.AccessDenied", "Rejected send message")) else {
            Issue.record("AccessDenied is not .accessDenied")
            return
        }
        guard case .accessDenied = BlueZError.from(Self.remote("org.bluez.Error.NotAuthorized", "Operation Not Authorized")) else {
            Issue.record("NotAuthorized outside GATT is not .accessDenied")
            return
        }
        #expect(BlueZError.from(Self.remote("org.bluez.Error.NotReady", "Resource Not Ready"), adapter: "hci1")
            == .adapterPoweredOff("hci1"))
        guard case .discoveryFailed(let text) = BlueZError.from(Self.remote("org.bluez.Error.Failed", "No discovery started"),
                                                                 discovery: true) else {
            Issue.record("a discovery refusal is not .discoveryFailed")
            return
        }
        #expect(text.contains("org.bluez.Error.Failed"))
        guard case .failed(let other) = BlueZError.from(Self.remote("org.bluez.Error.Failed", "boom")) else {
            Issue.record("Failed is not .failed")
            return
        }
        #expect(other.contains("org.bluez.Error.Failed: boom"))
    }

    @Test func failingToReachTheBusIsBusUnavailableUnlessThePolicyRefused() {
        guard case .busUnavailable(let text) = BlueZError.fromBusConnect(
            DBusError.library(name: "org.freedesktop.DBus.Error.FileNotFound", message: "No such file or directory")) else {
            Issue.record("a missing socket is not .busUnavailable")
            return
        }
        #expect(text.contains("FileNotFound"))
        guard case .accessDenied = BlueZError.fromBusConnect(
            DBusError.library(name: "org.freedesktop.DBus.Error.AccessDenied", message: "denied")) else {
            Issue.record("a policy refusal at connect is not .accessDenied")
            return
        }
    }

    @Test func everyDescriptionIsOneLineNamingTheFix() {
        let cases: [(BlueZError, String)] = [
            (.busUnavailable("x"), "systemctl start dbus"),
            (.bluetoothdNotRunning, "sudo systemctl start bluetooth"),
            (.accessDenied("x"), "'bluetooth' group"),
            (.noAdapter, "bluetoothctl list"),
            (.adapterNotFound("hci7", available: ["hci0", "hci1"]), "hci0, hci1"),
            (.adapterPoweredOff("hci0"), "bluetoothctl power on"),
            (.discoveryFailed("x"), "scan off"),
            (.failed("x"), "systemctl status bluetooth"),
        ]
        for (error, fix) in cases {
            #expect(error.description.contains(fix), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func connectFailuresWorthRetryingAreRecognised() {
        let retryable = [
            Self.remote("org.bluez.Error.Failed", "le-connection-abort-by-local"),
            Self.remote("org.bluez.Error.Failed", "le-connection-timeout"),
            Self.remote("org.bluez.Error.Failed", "Operation already in progress"),
            Self.remote("org.bluez.Error.Failed", "br-connection-canceled"),
            Self.remote("org.bluez.Error.InProgress", "In Progress"),
            Self.remote("org.bluez.Error.Failed", "Software caused connection abort"),
        ]
        for error in retryable {
            guard case .retryableConnect = BlueZFailure(error, context: .connect) else {
                Issue.record("\(error) is not retried")
                continue
            }
        }
        #expect(BlueZFailure(Self.remote("org.freedesktop.DBus.Error.UnknownObject", "Method Connect not found"),
                             context: .connect) == .objectGone)
        #expect(BlueZFailure(Self.remote("org.bluez.Error.Failed", "le-connection-adapter-not-powered"),
                             context: .connect) == .notReady)
        #expect(BlueZFailure(Self.remote("org.bluez.Error.Failed", "le-connection-refused"), context: .connect)
            == .other("org.bluez.Error.Failed: le-connection-refused"))
        #expect(BlueZFailure(.timedOut(member: "Connect", after: .seconds(5)), context: .connect) == .timedOut)
        #expect(BlueZFailure(.cancelled, context: .connect) == .cancelled)
        #expect(BlueZFailure(.disconnected, context: .connect) == .busLost)
    }

    @Test func gattErrorsMapBackToATTCodesAsBlueZMadeThem() {
        let table: [(DBusError, BlueZFailure)] = [
            (Self.remote("org.bluez.Error.NotPermitted", "Read not permitted"), .attError(.readNotPermitted)),
            (Self.remote("org.bluez.Error.NotPermitted", "Write not permitted"), .attError(.writeNotPermitted)),
            (Self.remote("org.bluez.Error.NotPermitted", "Not paired"), .attError(.insufficientAuthentication)),
            (Self.remote("org.bluez.Error.InvalidArguments", "Invalid offset"), .attError(ATTError(code: 0x07))),
            (Self.remote("org.bluez.Error.InvalidArguments", "Invalid Length"), .attError(.invalidAttributeValueLength)),
            (Self.remote("org.bluez.Error.NotAuthorized", "Operation Not Authorized"), .attError(ATTError(code: 0x08))),
            (Self.remote("org.bluez.Error.NotSupported", "Operation is not supported"), .attError(.requestNotSupported)),
            (Self.remote("org.bluez.Error.Failed", "Operation failed with ATT error: 0x80"), .attError(ATTError(code: 0x80))),
            (Self.remote("org.bluez.Error.Failed", "Not connected"), .notConnected),
            (Self.remote("org.bluez.Error.NotConnected", "Not Connected"), .notConnected),
            (Self.remote("org.bluez.Error.InProgress", "In Progress"), .inProgress),
            (Self.remote("org.bluez.Error.NotPermitted", "Write acquired"), .acquired),
            (Self.remote("org.bluez.Error.NotPermitted", "Notify acquired"), .acquired),
            (Self.remote("org.freedesktop.DBus.Error.UnknownMethod", "no such interface"), .objectGone),
            (Self.remote("org.bluez.Error.Failed", "Operation failed with ATT error: 0xZZ"),
             .other("org.bluez.Error.Failed: Operation failed with ATT error: 0xZZ")),
        ]
        for (error, expected) in table {
            #expect(BlueZFailure(error, context: .gatt) == expected, "\(error)")
        }
    }
}
