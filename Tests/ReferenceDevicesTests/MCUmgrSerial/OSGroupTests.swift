@testable import ReferenceDevices
import Testing

/// os_mgmt.c and smp.c's dispatch in the application.
@Suite struct MCUmgrSerialOSGroupTests {
    @Test func echoAnswersTheTextAndAnEmptyStringWithoutOne() {
        var rig = SerialRig(.test())
        let read = rig.request(.request(write: false, group: 0, command: 0, sequence: 9, .map([("d", .text("hi"))]))).first
        #expect(read?.op == 1)
        #expect(read?.sequence == 9)
        #expect(read?.body == .map([("r", .text("hi"))]))
        #expect(rig.request(.request(write: true, group: 0, command: 0)).first?.body == .map([("r", .text(""))]))
        #expect(rig.request(.request(write: true, group: 0, command: 0, .map([("d", .uint(1))]))).first?.body
            == .map([("rc", .uint(3))]))
    }

    @Test func responsesUseIndefiniteMapsUnlessZcborIsCanonical() {
        var rig = SerialRig(.test())
        let payload = rig.request(.request(write: true, group: 0, command: 0, .map([("d", .text("a"))]))).first?.payload
        #expect(payload == [0xBF, 0x61, 0x72, 0x61, 0x61, 0xFF])
        var config = MCUmgrSerialConfiguration.test()
        config.canonicalCBOR = true
        var canonical = SerialRig(config)
        let definite = canonical.request(.request(write: true, group: 0, command: 0, .map([("d", .text("a"))]))).first?.payload
        #expect(definite == [0xA1, 0x61, 0x72, 0x61, 0x61])
    }

    @Test func parametersAreOffByDefaultAndReportTheNetbufs() {
        var rig = SerialRig(.test())
        #expect(rig.request(.request(write: false, group: 0, command: 6)).first?.body == .map([("rc", .uint(8))]))
        var config = MCUmgrSerialConfiguration.test()
        config.osMCUmgrParameters = true
        var enabled = SerialRig(config)
        #expect(enabled.request(.request(write: false, group: 0, command: 6)).first?.body
            == .map([("buf_size", .uint(384)), ("buf_count", .uint(4))]))
    }

    @Test func unknownCommandsVersionsAndOpsGetTheirReturnCodes() {
        var rig = SerialRig(.test())
        #expect(rig.request(.request(write: false, group: 9, command: 0)).first?.body == .map([("rc", .uint(8))]))
        #expect(rig.request(.request(write: false, group: 1, command: 1)).first?.body == .map([("rc", .uint(8))]))
        #expect(rig.request(.request(write: false, group: 0, command: 0, version: 2)).first?.body == .map([("rc", .uint(13))]))
        let response = TestSMP(op: 1, group: 0, command: 0, payload: TestCBOR.map([]).encoded)
        let answer = rig.request(response).first
        #expect(answer?.op == 3)
        #expect(answer?.body == .map([("rc", .uint(8))]))
    }

    @Test func resetAnswersThenReattachesAfterTheDelayAndTheBoot() {
        var rig = SerialRig(.test())
        let sent = rig.now
        #expect(rig.request(.request(write: true, group: 0, command: 5)).first?.body == .map([]))
        rig.settle()
        #expect(rig.log.contains(.detach))
        #expect(rig.log.last == .attach)
        #expect(sent.duration(to: rig.now) >= .milliseconds(250) + rig.device.configuration.bootTime)
        #expect(rig.device.counters.boots == 2)
    }

    @Test func bootModeOneSendsTheDeviceIntoSerialRecoveryAfterAnySwap() throws {
        var config = MCUmgrSerialConfiguration.test()
        config.osResetBootMode = true
        config.recoveryOnBootMode = true
        var rig = SerialRig(config)
        #expect(rig.reset(.map([("boot_mode", .uint(256))])) == .map([("rc", .uint(3))]))
        #expect(rig.device.mode == .application)
        let image = Samples.image(major: 4, minor: 0)
        rig.upload(image)
        _ = rig.setImageState(hash: Samples.hash(of: image), confirm: false)
        #expect(rig.reset(.map([("boot_mode", .uint(1))])) == .map([]))
        #expect(rig.device.mode == .recovery)
        #expect(rig.device.retainedBootMode == nil)  // MCUboot cleared it
        #expect(rig.device.counters.swaps == 1)      // boot_go ran before the boot mode check
        let listed = try unwrap(rig.request(.request(write: false, group: 1, command: 0)).first?.body)
        #expect(listed["images"]?.array?.first?["version"]?.text == "4.0.0")
    }

    @Test func bootModeIsIgnoredWithoutTheKconfigOptions() {
        var rig = SerialRig(.test())
        #expect(rig.reset(.map([("boot_mode", .uint(1))])) == .map([]))
        #expect(rig.device.mode == .application)
    }
}
