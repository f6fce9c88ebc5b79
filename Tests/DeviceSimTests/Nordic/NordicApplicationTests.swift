import DFUCore
import DeviceSim
import Testing
import Transport

/// The application's buttonless characteristic and its reads (nordic-secure-dfu.md §1.2).
@Suite struct NordicApplicationTests {
    func subscribedApp() -> NordicApplication {
        var app = NordicApplication(version: 10_000, batteryLevel: 64)
        _ = app.handle(.connected)
        _ = app.handle(.subscribed(NordicDeviceGATT.buttonless))
        return app
    }

    @Test func reportsItsVersionAndBattery() {
        let app = NordicApplication(version: 10_000, batteryLevel: 64)
        #expect(app.read(NordicDeviceGATT.firmwareRevision) == Array("1.0.0".utf8))
        #expect(app.read(NordicDeviceGATT.batteryLevel) == [64])
        #expect(app.read(NordicDeviceGATT.controlPoint) == nil)
    }

    @Test func enterBootloaderIndicatesSuccessThenResets() {
        var app = subscribedApp()
        #expect(app.handle(.write(NordicDeviceGATT.buttonless, [0x01])) == [.indicate([0x20, 0x01, 0x01]), .enterBootloader])
    }

    @Test func writeBeforeIndicationsAreEnabledIsRefused() {
        var app = NordicApplication(version: 1, batteryLevel: 80)
        _ = app.handle(.connected)
        #expect(app.handle(.write(NordicDeviceGATT.buttonless, [0x01])) == [.refuseWrite(ATTError(code: 0xFD))])
    }

    @Test func setNameTakesOneToTwentyBytes() {
        var app = subscribedApp()
        #expect(app.handle(.write(NordicDeviceGATT.buttonless, [0x02, 0x05] + Array("Dfu42".utf8)))
            == [.setBootloaderName("Dfu42"), .indicate([0x20, 0x02, 0x01])])
        #expect(app.handle(.write(NordicDeviceGATT.buttonless, [0x02, 0x00])) == [.indicate([0x20, 0x02, 0x05])])
        #expect(app.handle(.write(NordicDeviceGATT.buttonless, [0x02, 21] + Array(repeating: 0x41, count: 21)))
            == [.indicate([0x20, 0x02, 0x05])])
        #expect(app.handle(.write(NordicDeviceGATT.buttonless, [0x02, 0x05, 0x41])) == [.indicate([0x20, 0x02, 0x05])])
    }

    @Test func otherOpcodesAreNotSupported() {
        var app = subscribedApp()
        #expect(app.handle(.write(NordicDeviceGATT.buttonless, [0x03])) == [.indicate([0x20, 0x03, 0x02])])
        #expect(app.handle(.write(NordicDeviceGATT.batteryLevel, [0x01])) == [.refuseWrite(.writeNotPermitted)])
    }

    @Test func versionTextFollowsNrfutilsVersionString() {
        #expect(NordicAppVersion.text(3) == "0.0.3")
        #expect(NordicAppVersion.text(20_731) == "2.7.31")
        #expect(NordicAppVersion.parse("2.7.31") == 20_731)
        #expect(NordicAppVersion.parse("3") == 3)
        #expect(NordicAppVersion.parse("1.100.0") == nil)
    }

    @Test func bootloaderAddressAddsOneToTheLastOctetWithoutCarry() {
        #expect(NordicAddress.bootloader(for: PeerIdentity("C0:11:22:33:44:55")) == PeerIdentity("C0:11:22:33:44:56"))
        #expect(NordicAddress.bootloader(for: PeerIdentity("C0:11:22:33:44:FF")) == PeerIdentity("C0:11:22:33:44:00"))
        #expect(NordicAddress.bootloader(for: PeerIdentity("C0:11:22:33:44:0F")) == PeerIdentity("C0:11:22:33:44:10"))
        // No address, no rule to derive another: the bootloader answers where the device was named.
        #expect(NordicAddress.bootloader(for: PeerIdentity("board-7")) == PeerIdentity("board-7"))
    }
}
