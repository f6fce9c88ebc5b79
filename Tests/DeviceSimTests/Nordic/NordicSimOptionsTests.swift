import DFUCore
import DeviceSim
import Testing
import Transport

/// `sim:protocol=nordic,…` options.
@Suite struct NordicSimOptionsTests {
    @Test func defaultsAcceptTheSignedSamples() throws {
        let configuration = try SimOptions.parse("sim:protocol=nordic").nordicDeviceConfiguration()
        #expect(configuration.bootloader.sdk == .sdk17)
        #expect(configuration.bootloader.hardwareVersion == 52)
        #expect(configuration.bootloader.chip == .nrf52832)
        #expect(configuration.bootloader.updateCapacity == NordicChipLayout.nrf52832.updateCapacity)
        #expect(configuration.bootloader.softDeviceFWID == 0x0101)
        #expect(configuration.bootloader.appVersion == 1)
        #expect(configuration.bootloader.inactivityTimeout == .seconds(120))
        #expect(configuration.bootloader.key == (try NordicSamples.key("TEST-ONLY-nordic-p256")))
    }

    @Test func everyNordicKeyIsRead() throws {
        let key = SimSamples.path("nordic/keys/TEST-ONLY-nordic-other-p256.pub.pem")
        let options = try SimOptions.parse("sim:protocol=nordic,version=1.2.3,key=\(key),sdk=15,hw=51,sd=0x0103,prn-drop=5+17,inactivity=off")
        let bootloader = try options.nordicDeviceConfiguration().bootloader
        #expect(bootloader.appVersion == 10_203)
        #expect(bootloader.key == (try NordicSamples.key("TEST-ONLY-nordic-other-p256")))
        #expect(bootloader.sdk == .sdk15 && bootloader.hardwareVersion == 51 && bootloader.softDeviceFWID == 0x0103)
        #expect(bootloader.droppedPacketWrites == [5, 17])
        #expect(bootloader.inactivityTimeout == nil)
        // The canonical text parses back to the same device.
        #expect(try SimOptions.parse(options.canonicalText).nordicDeviceConfiguration().bootloader.droppedPacketWrites == [5, 17])
        #expect(try SimOptions.parse(options.canonicalText).identity == options.identity)
    }

    @Test(arguments: NordicChipLayout.all)
    func chipSetsTheLayoutAndTheSoftDeviceTheBootloaderExpects(_ chip: NordicChipLayout) throws {
        let options = try SimOptions.parse("sim:protocol=nordic,chip=\(chip.name.uppercased())")
        let bootloader = try options.nordicDeviceConfiguration().bootloader
        #expect(bootloader.chip == chip)
        #expect(bootloader.updateCapacity == chip.updateCapacity)
        #expect(bootloader.bootloaderCapacity == 0x6000)
        #expect(bootloader.softDeviceFWID == chip.softDeviceFWID)
        // The canonical text names the chip (unless it is the default) and parses back to the same device.
        #expect(options.canonicalText.contains("chip=") == (chip != .nrf52832), "\(options.canonicalText)")
        let again = try SimOptions.parse(options.canonicalText)
        #expect(try again.nordicDeviceConfiguration().bootloader.chip == chip)
        #expect(again.identity == options.identity)
    }

    @Test func anExplicitSoftDeviceWinsOverTheChips() throws {
        let bootloader = try SimOptions.parse("sim:protocol=nordic,sd=0x0101,chip=nrf52840").nordicDeviceConfiguration().bootloader
        #expect(bootloader.chip == .nrf52840 && bootloader.softDeviceFWID == 0x0101)
    }

    @Test func theDefaultChipLeavesTheIdentityAsItWas() throws {
        let plain = try SimOptions.parse("sim:protocol=nordic")
        #expect(try SimOptions.parse("sim:protocol=nordic,chip=nrf52832").identity == plain.identity)
        #expect(try SimOptions.parse("sim:protocol=nordic,chip=nrf52840").identity != plain.identity)
    }

    @Test func integerVersionIsAnAppVersion() throws {
        #expect(try SimOptions.parse("sim:version=3,protocol=nordic").nordicDeviceConfiguration().bootloader.appVersion == 3)
    }

    @Test func linkDropsAndTheHostsReportDelayAreParsed() throws {
        let options = try SimOptions.parse("sim:protocol=nordic,drop=create:2+execute:5+packet:300,drop_report=40ms")
        #expect(try options.nordicDeviceConfiguration().bootloader.linkDrops
                == [.afterCreate(2), .afterExecute(5), .afterPacket(300)])
        #expect(try options.linkProfile().dropReportDelay == .milliseconds(40))
        #expect(options.canonicalText.contains("drop=create:2+execute:5+packet:300"))
        #expect(options.canonicalText.hasSuffix(",drop_report=40ms"))
        // The host's delay is not the device's: the identity stays.
        #expect(options.identity == (try SimOptions.parse("sim:protocol=nordic,drop=create:2+execute:5+packet:300").identity))
    }

    @Test(arguments: [("chip", "nrf52810"), ("chip", ""), ("chip", "52840"), ("sdk", "14"), ("hw", "x"), ("sd", "0x10000"), ("prn_drop", "0"), ("prn_drop", "3+"),
                      ("drop", "create:0"), ("drop", "reset:1"), ("drop", "create"), ("drop_report", "20000"),
                      ("inactivity", "0"), ("version", "1.100.0")])
    func badNordicValueNamesKeyAndValue(key: String, value: String) throws {
        do {
            _ = try SimOptions.parse("sim:protocol=nordic,\(key)=\(value)")
            Issue.record("\(key)=\(value) was accepted")
        } catch .badValue(let badKey, let badValue, let expected) {
            #expect(badKey == key && badValue == value && !expected.isEmpty)
        } catch {
            Issue.record("\(key)=\(value): \(error)")
        }
    }

    @Test func nordicKeysOnAnSMPDeviceAreRefused() throws {
        #expect(throws: SimOptionsError.inconsistent("sdk= applies to protocol=nordic only")) {
            try SimOptions.parse("sim:sdk=15")
        }
        #expect(throws: SimOptionsError.inconsistent("chip= applies to protocol=nordic only")) {
            try SimOptions.parse("sim:chip=nrf52840")
        }
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:version=3") }
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:protocol=nordic").makeDevice() }
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim").makeNordicDevice() }
    }

    @Test func nonP256KeyIsRefused() throws {
        let path = SimSamples.path("keys/TEST-ONLY-ed25519.pub.pem")
        do {
            _ = try SimOptions.parse("sim:protocol=nordic,key=\(path)").nordicDeviceConfiguration()
            Issue.record("an Ed25519 key was accepted")
        } catch .keyUnusable(let keyPath, let reason) {
            #expect(keyPath == path && reason.contains("P-256"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func smpIdentityIsUnchangedByTheNordicOptions() throws {
        // The SMP device text has no Nordic items, so identities derived before them stay.
        #expect(!(try SimOptions.parse("sim").canonicalText.contains("sdk=")))
        #expect(try SimOptions.parse("sim:protocol=nordic").canonicalText.contains("sdk=17"))
    }
}
