import ReferenceDevices
import Testing
import Transport

@Suite struct ButtonlessTests {
    @Test func setNameIsAnsweredAndTheBootloaderAdvertisesIt() throws {
        var bench = Bench(Update.config())
        bench.connect(subscribing: SDKGATT.buttonless)
        #expect(bench.buttonless([0x02, 0x05] + Array("MyDfu".utf8)).notification == [0x20, 0x02, 0x01])
        #expect(bench.device.bootloaderName == "MyDfu")
        // The SVCI writes the name once per application run.
        #expect(bench.buttonless([0x02, 0x03] + Array("Abc".utf8)).notification == [0x20, 0x02, 0x04])
        _ = bench.buttonless([0x01])
        bench.finishReset()
        #expect(bench.device.advertisement?.name == "MyDfu")

        // Once the bootloader starts the application again, the stored name is erased.
        bench.advance(.seconds(120))
        bench.advance(.milliseconds(100))
        #expect(bench.device.mode == .application)
        #expect(bench.device.bootloaderName == "DfuTarg")
    }

    @Test func setNameWithABadLengthIsAnswered05() {
        var bench = Bench(Update.config())
        bench.connect(subscribing: SDKGATT.buttonless)
        #expect(bench.buttonless([0x02, 0x00]).notification == [0x20, 0x02, 0x05])
        #expect(bench.buttonless([0x02, 21] + [UInt8](repeating: 0x41, count: 20)).notification == [0x20, 0x02, 0x05])
        #expect(bench.device.bootloaderName == "DfuTarg")
    }

    @Test func sdk13AnswersSetNameWithOpCodeNotSupported() {
        var bench = Bench(Update.config { $0.buttonless = .setNameNotSupported })
        bench.connect(subscribing: SDKGATT.buttonless)
        #expect(bench.buttonless([0x02, 0x03] + Array("Abc".utf8)).notification == [0x20, 0x02, 0x02])
        #expect(bench.buttonless([0x01]).notification == [0x20, 0x01, 0x01])
    }

    @Test func setNameWithoutTheSVCIResetsTheApplication() {
        var bench = Bench(Update.config { $0.buttonless = .asyncSVCIMissing })
        bench.connect(subscribing: SDKGATT.buttonless)
        let reply = bench.buttonless([0x02, 0x03] + Array("Abc".utf8))
        #expect(reply.notification == nil)
        #expect(reply.droppedLink == .reset)
        bench.finishReset()
        #expect(bench.device.mode == .application)
        #expect(bench.device.counters.resets == 1)
    }

    @Test func writesNeedIndicationsAndKnownOpCodes() {
        var bench = Bench(Update.config())
        bench.connect()
        #expect(bench.buttonless([0x01]).refusal == ATTError(code: 0xFD))
        #expect(bench.device.mode == .application)
        bench.send(.subscribed(SDKGATT.buttonless))
        #expect(bench.buttonless([0x05]).notification == [0x20, 0x05, 0x02])
        #expect(bench.buttonless([UInt8](repeating: 2, count: 24)).refusal == .invalidAttributeValueLength)
    }

    @Test func applicationServesBatteryAndFirmwareRevision() {
        let bench = Bench(Update.config { $0.batteryLevel = 77 })
        #expect(bench.device.read(SDKGATT.batteryLevel) == .success([77]))
        #expect(bench.device.gattServices.map(\.id) == [SDKGATT.dfuService, SDKGATT.batteryService,
                                                       SDKGATT.deviceInformationService])
    }
}
