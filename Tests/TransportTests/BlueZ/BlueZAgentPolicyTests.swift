@testable import BlueZTransport
@testable import DBusBinding
import Testing
@testable import Transport

/// What dfu's pairing agent answers (bluez-dbus.md §9): only the device being updated, the
/// passkey it was given, never Just Works, never PIN codes.
struct BlueZAgentPolicyTests {
    static let device = "/org/bluez/hci0/dev_C2_11_40_55_7A_01"
    static let other = "/org/bluez/hci0/dev_00_11_22_33_44_55"
    static let passkey = Passkey(123_456)!

    struct Asker: BlueZPairingPrompt {
        func enterPasskey(device: String) async -> Passkey? { nil }
        func confirm(passkey: Passkey, device: String) async -> Bool { false }
        func display(passkey: Passkey, device: String) async {}
        func cancelled() async {}
    }

    let told = BlueZAgentPolicy(input: .passkey(passkey))
    let asking = BlueZAgentPolicy(input: .prompt(Asker()))

    @Test func answersThePasskeyRequestOfTheDeviceBeingUpdated() {
        #expect(told.decide(.requestPasskey(device: Self.device), allowed: [Self.device]) == .passkey(Self.passkey))
    }

    @Test func rejectsEveryRequestAboutAnotherDevice() {
        let requests: [BlueZAgentRequest] = [
            .requestPasskey(device: Self.other), .requestConfirmation(device: Self.other, passkey: 123_456),
            .displayPasskey(device: Self.other, passkey: 1, entered: 0), .requestAuthorization(device: Self.other),
        ]
        for request in requests {
            guard case .reject = told.decide(request, allowed: [Self.device]) else {
                Issue.record("\(request) was not rejected")
                continue
            }
        }
    }

    @Test func neverAcceptsJustWorksOrPINCodes() {
        for policy in [told, asking] {
            for request in [BlueZAgentRequest.requestAuthorization(device: Self.device), .requestPinCode(device: Self.device),
                            .authorizeService(device: Self.device, uuid: "0000110a-0000-1000-8000-00805f9b34fb")] {
                guard case .reject = policy.decide(request, allowed: [Self.device]) else {
                    Issue.record("\(request) was accepted")
                    continue
                }
            }
        }
    }

    @Test func confirmsANumberOnlyWhenItIsThePasskeyGiven() {
        #expect(told.decide(.requestConfirmation(device: Self.device, passkey: 123_456), allowed: [Self.device]) == .accept)
        guard case .reject = told.decide(.requestConfirmation(device: Self.device, passkey: 654_321), allowed: [Self.device]) else {
            Issue.record("a different number was confirmed")
            return
        }
    }

    @Test func onATerminalAsksThePerson() {
        #expect(asking.decide(.requestPasskey(device: Self.device), allowed: [Self.device]) == .askPasskey)
        #expect(asking.decide(.requestConfirmation(device: Self.device, passkey: 42), allowed: [Self.device])
            == .askConfirmation(Passkey(42)!))
        #expect(asking.decide(.displayPasskey(device: Self.device, passkey: 7, entered: 0), allowed: [Self.device])
            == .show(Passkey(7)!))
    }

    @Test func decodesOnlyWellTypedCalls() {
        #expect(BlueZAgentRequest(member: "RequestPasskey", arguments: [.objectPath(Self.device)])
            == .requestPasskey(device: Self.device))
        #expect(BlueZAgentRequest(member: "RequestPasskey", arguments: [.string(Self.device)]) == nil)
        #expect(BlueZAgentRequest(member: "DisplayPasskey", arguments: [.objectPath(Self.device), .uint32(5)]) == nil)
        #expect(BlueZAgentRequest(member: "Unknown", arguments: []) == nil)
    }
}

struct PasskeyTests {
    @Test func acceptsExactlySixDigits() {
        #expect(Passkey(text: "004711")?.value == 4711)
        #expect(Passkey(text: "999999")?.value == 999_999)
        for bad in ["12345", "1234567", "12345a", "-12345", " 12345", "１２３４５６"] {
            #expect(Passkey(text: bad) == nil, "\(bad)")
        }
        #expect(Passkey(1_000_000) == nil)
    }

    @Test func neverShowsItsDigitsWhenInterpolated() {
        let passkey = Passkey(123_456)!
        #expect("\(passkey)" == "******")
        #expect(String(describing: passkey) == "******")
        #expect(passkey.digits == "123456")
    }
}

struct BlueZPairOutcomeTests {
    static func remote(_ name: String, _ message: String = "") -> DBusError { .remote(name: name, message: message) }

    @Test func namesEachPairingErrorOfBlueZ() {
        #expect(BlueZPairOutcome(Self.remote("org.bluez.Error.AlreadyExists", "Already Exists")) == .alreadyPaired)
        guard case .failed(let wrong) = BlueZPairOutcome(Self.remote("org.bluez.Error.AuthenticationFailed")),
              case .failed(let rejected) = BlueZPairOutcome(Self.remote("org.bluez.Error.AuthenticationRejected")),
              case .failed(let timeout) = BlueZPairOutcome(Self.remote("org.bluez.Error.AuthenticationTimeout")) else {
            Issue.record("an authentication error was not final")
            return
        }
        #expect(wrong.contains("passkey was wrong") && wrong.contains("AuthenticationFailed"))
        #expect(rejected.contains("AuthenticationRejected"))
        #expect(timeout.contains("timed out"))
        guard case .retry = BlueZPairOutcome(Self.remote("org.bluez.Error.InProgress", "In Progress")) else {
            Issue.record("InProgress is not retried")
            return
        }
        #expect(BlueZPairOutcome(Self.remote("org.freedesktop.DBus.Error.ServiceUnknown")) == .unavailable(.bluetoothdNotRunning))
    }
}
