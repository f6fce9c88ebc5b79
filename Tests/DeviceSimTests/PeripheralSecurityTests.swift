import BlueZTransport
@testable import DeviceSim
import Testing
import Transport

/// `dfu sim --security`: the SMP characteristic's BlueZ flags per level, and what the sim's agent
/// answers (only for centrals on its own adapter: one bluetoothd may serve both sides).
struct PeripheralSecurityTests {
    static let own = "/org/bluez/hci0/dev_00_AA_01_01_00_01"
    static let other = "/org/bluez/hci1/dev_00_AA_01_00_00_00"
    static let passkey = Passkey(123_456)!

    @Test func authenGuardsTheSMPValueAndItsCCCAndLeavesTheOthersOpen() {
        let application = PeripheralApplication(root: "/t", security: .authen)
        let smp = application.characteristics.first { $0.id == DeviceGATT.smpCharacteristic }
        #expect(smp?.flags == ["write-without-response", "encrypt-authenticated-write", "encrypt-authenticated-notify"])
        let battery = application.characteristics.first { $0.id == DeviceGATT.batteryLevel }
        #expect(battery?.flags == ["read", "notify"])
        let open = PeripheralApplication(root: "/t").characteristics.first { $0.id == DeviceGATT.smpCharacteristic }
        #expect(open?.flags == ["write-without-response", "notify"])
        let encrypt = PeripheralApplication(root: "/t", security: .encrypt).characteristics
            .first { $0.id == DeviceGATT.smpCharacteristic }
        #expect(encrypt?.flags == ["write-without-response", "encrypt-write", "encrypt-notify"])
    }

    @Test func theAgentAnswersOnlyForItsOwnAdapter() {
        let policy = PeripheralAgentPolicy(adapterPath: "/org/bluez/hci0",
                                           pairing: .init(security: .authen, passkey: Self.passkey))
        #expect(policy.decide("RequestPasskey", device: Self.own) == .passkey(123_456))
        #expect(policy.decide("RequestPasskey", device: Self.other) == .reject)
        #expect(policy.decide("RequestConfirmation", device: Self.own, passkey: 123_456) == .accept)
        #expect(policy.decide("RequestConfirmation", device: Self.own, passkey: 1) == .reject)
        #expect(policy.decide("RequestAuthorization", device: Self.own) == .reject, "no Just Works for authen")
        #expect(policy.decide("RequestPinCode", device: Self.own) == .reject)
    }

    @Test func encryptWithoutAPasskeyTakesJustWorks() {
        let policy = PeripheralAgentPolicy(adapterPath: "/org/bluez/hci0", pairing: .init(security: .encrypt))
        #expect(policy.decide("RequestAuthorization", device: Self.own) == .accept)
        #expect(policy.decide("RequestAuthorization", device: Self.other) == .reject)
        #expect(PeripheralSecurity.Pairing(security: .encrypt).agentCapability == "NoInputNoOutput")
        #expect(PeripheralSecurity.Pairing(security: .authen, passkey: Self.passkey).agentCapability == "KeyboardOnly")
        #expect(PeripheralSecurity.Pairing().agentCapability == nil)
    }

    @Test func authenNeedsAPasskey() {
        #expect(PeripheralSecurity.Pairing(security: .authen).problem != nil)
        #expect(PeripheralSecurity.Pairing(security: .open, passkey: Self.passkey).problem != nil)
        #expect(PeripheralSecurity.Pairing(security: .authen, passkey: Self.passkey).problem == nil)
    }
}
