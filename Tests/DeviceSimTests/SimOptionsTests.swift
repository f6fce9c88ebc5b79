import DFUCore
@testable import DeviceSim
import Testing
import Transport

/// `sim:key=value,…` and `dfu sim` flag values.
@Suite struct SimOptionsTests {
    /// Addresses derived from text (FNV-1a, top two bits set) are the same on every run: a journal
    /// recognises the device by them. The value is the one the derivation has always given.
    @Test func aDerivedAddressIsTheSameOnEveryRun() {
        let application = PeerIdentity("C1:02:03:04:05:06")
        #expect(NordicBootloaderAddressing.unrelated(to: application) == .own(PeerIdentity("FB:ED:F9:09:D8:9E")))
    }

    @Test func plainSimGivesTheDefaults() throws {
        let options = try SimOptions.parse("sim")
        #expect(options == SimOptions())
        #expect(options.version == ImageVersion(major: 1, minor: 0, revision: 0))
        #expect(options.battery == 80 && options.mtu == 498 && options.phy == .le2M)
        #expect(options.interval == .microseconds(7500))
        #expect(options.bufferSize == 2475 && options.bufferCount == 4 && options.slotSize == 0x60000)
        #expect(options.reassembly && options.faults.isEmpty && options.keyPath == nil)
    }

    @Test func everyKeyIsParsed() throws {
        let keyPath = SimSamples.path("keys/TEST-ONLY-other-ecdsa-p256.pub.pem")
        let options = try SimOptions.parse(
            "sim:protocol=smp,version=1.2.3+45,battery=15%,key=\(keyPath),id=C1:02:03:04:05:06,mtu=247,"
            + "phy=1M,interval=30,buf_size=1024,buf-count=6,slot_size=1M,reassembly=off,seed=7,fault=stall@10")
        #expect(options.version == ImageVersion(major: 1, minor: 2, revision: 3, build: 45))
        #expect(options.battery == 15 && options.keyPath == keyPath && options.id == "C1:02:03:04:05:06")
        #expect(options.mtu == 247 && options.phy == .le1M && options.interval == .milliseconds(30))
        #expect(options.bufferSize == 1024 && options.bufferCount == 6 && options.slotSize == 0x100000)
        #expect(!options.reassembly && options.seed == 7 && options.faults == [.stall(at: .bytes(10))])
        #expect(options.identity == PeerIdentity("C1:02:03:04:05:06"))
    }

    @Test func faultsJoinWithPlusOrARepeatedKey() throws {
        let joined = try SimOptions.parse("sim:fault=disconnect@40%+reboot@60%")
        #expect(joined.faults == [.disconnect(at: .percent(40)), .reboot(at: .percent(60))])
        let repeated = try SimOptions.parse("sim:fault=disconnect@40%,fault=reboot@60%")
        #expect(repeated.faults == joined.faults)
        let all = try SimOptions.parse("sim:fault=corrupt@1K+duplicate@12.5%+delay@50%:1500ms+delay@3%+stall@0")
        #expect(all.faults == [.corrupt(at: .bytes(1024)), .duplicate(at: .percent(12.5)),
                               .delay(at: .percent(50), by: .milliseconds(1500)),
                               .delay(at: .percent(3), by: .seconds(1)), .stall(at: .bytes(0))])
    }

    /// Found by make fuzz (SimOptions): a delay of 5.5e21 s parsed, then trapped when the fault
    /// was written back as milliseconds. A delay or outage longer than a day is refused.
    @Test func aDelayLongerThanADayIsRefusedNotATrap() throws {
        let found = "sim:fault=silent@50%,fault=outage@8192:0000005523502485315576718s"
        #expect(throws: SimOptionsError.self) { try SimOptions.parse(found) }
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:fault=delay@50%:86401s") }
        let day = try SimOptions.parse("sim:fault=delay@50%:86400000ms")
        #expect(day.faults == [.delay(at: .percent(50), by: .seconds(86_400))])
        #expect(day.deviceText.contains("delay@50%:86400000ms"), "\(day.deviceText)")
    }

    @Test func commaBetweenFaultsIsExplained() throws {
        #expect(throws: SimOptionsError.missingEquals(item: "reboot@60%")) {
            try SimOptions.parse("sim:fault=disconnect@40%,reboot@60%")
        }
        let message = SimOptionsError.missingEquals(item: "reboot@60%").description
        #expect(message.contains("+") && message.contains("fault="))
    }

    @Test func randomFaultPointsComeFromTheSeed() throws {
        let a = try SimOptions.parse("sim:seed=42,fault=disconnect@random+reboot@random")
        let b = try SimOptions.parse("sim:fault=disconnect@random+reboot@random,seed=42")
        let c = try SimOptions.parse("sim:seed=43,fault=disconnect@random+reboot@random")
        #expect(a.faults == b.faults)
        #expect(a.faults != c.faults)
        for fault in a.faults + c.faults {
            guard case .percent(let share) = fault.trigger else {
                Issue.record("random point should be a percentage: \(fault)")
                continue
            }
            #expect((5 ... 95).contains(share))
        }
    }

    @Test func unknownKeyIsNamed() throws {
        #expect(throws: SimOptionsError.unknownKey("colour")) { try SimOptions.parse("sim:colour=red") }
        #expect(SimOptionsError.unknownKey("colour").description.contains("colour"))
        #expect(SimOptionsError.unknownKey("colour").description.contains("buf_size"))
    }

    @Test(arguments: [
        ("version", "1.0"), ("version", "256.0.0"), ("battery", "101"), ("battery", "-1"), ("mtu", "22"),
        ("mtu", "518"), ("phy", "coded"), ("interval", "7"), ("interval", "8"), ("interval", "4001"),
        ("buf_size", "63"), ("buf_count", "1"), ("slot_size", "0x60001"), ("slot_size", "32K"),
        ("reassembly", "maybe"), ("seed", "-3"), ("fault", "explode@10%"), ("fault", "reboot@101%"),
        ("fault", "reboot"), ("fault", "stall@10%:5ms"), ("protocol", "dfu"), ("key", ""), ("id", "a b"),
    ])
    func badValueNamesKeyAndValue(key: String, value: String) throws {
        do {
            _ = try SimOptions.parse("sim:\(key)=\(value)")
            Issue.record("\(key)=\(value) was accepted")
        } catch .badValue(let badKey, let badValue, let expected) {
            #expect(badKey == key && badValue == value && !expected.isEmpty)
        } catch {
            Issue.record("\(key)=\(value): \(error)")
        }
    }

    @Test func repeatedKeyOtherThanFaultIsRefused() throws {
        #expect(throws: SimOptionsError.duplicateKey("battery")) { try SimOptions.parse("sim:battery=10,battery=20") }
    }

    @Test func textThatIsNotASimDeviceIsRefused() throws {
        #expect(throws: SimOptionsError.notASimDevice("simulator")) { try SimOptions.parse("simulator") }
    }

    @Test func flagValuesUseTheSameKeys() throws {
        var options = SimOptions()
        try options.set("buf-size", to: "512")
        try options.set("fault", to: "stall@5%")
        try options.set("fault", to: "reboot@90%")
        #expect(options.bufferSize == 512)
        #expect(options.faults == [.stall(at: .percent(5)), .reboot(at: .percent(90))])
    }

    @Test func derivedIdentityIsAStableRandomStaticAddress() throws {
        let a = try SimOptions.parse("sim:version=1.0.0,battery=15").identity
        let again = try SimOptions.parse("sim:battery=15,version=1.0.0").identity
        let other = try SimOptions.parse("sim:version=1.0.0,battery=16").identity
        #expect(a == again && a != other)
        let parts = a.rawValue.split(separator: ":")
        #expect(parts.count == 6 && parts.allSatisfy { $0.count == 2 && UInt8($0, radix: 16) != nil })
        #expect((UInt8(parts[0], radix: 16) ?? 0) & 0xC0 == 0xC0)
    }

    @Test func canonicalTextParsesBackToTheSameOptions() throws {
        let options = try SimOptions.parse("sim:version=2.0.1+9,phy=1M,interval=11.25,slot_size=512K,"
                                           + "fault=delay@20%:250ms+disconnect@random,seed=5")
        #expect(try SimOptions.parse(options.canonicalText) == options)
    }

    @Test func optionsBuildTheDeviceAndItsLink() throws {
        let options = try SimOptions.parse("sim:version=1.4.2,battery=15,mtu=247,phy=1M,interval=30")
        let device = try options.makeDevice()
        #expect(device.read(DeviceGATT.batteryLevel) == [15])
        #expect(device.read(DeviceGATT.firmwareRevision) == Array("1.4.2".utf8))
        #expect(device.identity == options.identity)
        let profile = try options.linkProfile()
        #expect(profile.attMTU == 247 && profile.phy == .le1M && profile.connectionInterval == .milliseconds(30))
    }

    @Test func udpServerCanAskForDatagramFraming() throws {
        let options = try SimOptions.parse("sim:reassembly=off")
        #expect(try options.deviceConfiguration().server.framing == .onePacketPerWrite)
        #expect(try options.makeDevice(framing: .datagram).server.configuration.framing == .datagram)
    }

    @Test func emptyItemIsExplained() throws {
        #expect(throws: SimOptionsError.missingEquals(item: "")) { try SimOptions.parse("sim:battery=10,") }
        #expect(SimOptionsError.missingEquals(item: "").description.contains("trailing comma"))
    }

    @Test func keyOptionLoadsThatKeyAndAMissingFileIsNamed() throws {
        let other = try SimOptions.parse("sim:key=\(SimSamples.path("keys/TEST-ONLY-other-ecdsa-p256.pub.pem"))")
        #expect(try other.deviceConfiguration().bootloaderKey == SimSamples.key("other-ecdsa-p256"))
        #expect(try SimOptions().deviceConfiguration().bootloaderKey == SimSamples.key("ecdsa-p256"))
        do {
            _ = try SimOptions.parse("sim:key=/nonexistent/k.pem").deviceConfiguration()
            Issue.record("a missing key file was accepted")
        } catch .keyUnusable(let path, let reason) {
            #expect(path == "/nonexistent/k.pem" && !reason.isEmpty)
        }
    }

    @Test func smallestSlotStillHoldsTheRunningImage() throws {
        var options = SimOptions()
        try options.set("slot_size", to: "0x10000")
        #expect(throws: Never.self) { try options.makeDevice() }
    }

    /// reorder, truncate and battery at upload points; reboot at a request, before, instead of or
    /// after answering it.
    @Test func replyBatteryAndRebootAtRequestFaultsParseAndPrintBack() throws {
        let text = "reorder@40%+truncate@random+truncate@12.5%:4+battery@50%:12+reboot@60%+reboot@request:state-write"
            + "+reboot-before@request:reset+reboot-after@request:state-write:2"
        let options = try SimOptions.parse("sim:seed=3,fault=" + text)
        let printed = options.faults.map(\.description)
        #expect(printed[0] == "reorder@40%" && printed[2] == "truncate@12.5%:4" && printed[3] == "battery@50%:12")
        #expect(printed[4] == "reboot@60%" && printed[5] == "reboot@request:state-write")
        #expect(printed[6] == "reboot-before@request:reset" && printed[7] == "reboot-after@request:state-write:2")
        guard case .truncate(.percent(let share), 1) = options.faults[1] else {
            Issue.record("truncate@random: \(options.faults[1])")
            return
        }
        #expect((5 ... 95).contains(share))
        #expect(try SimOptions.parse("sim:fault=battery@1K:7%").faults == [.battery(at: .bytes(1024), level: 7)])
        let again = try SimOptions.parse("sim:fault=" + printed.joined(separator: "+"))
        #expect(again.faults == options.faults)
    }

    @Test(arguments: ["battery@50%", "battery@50%:101", "battery@50%:x", "truncate@50%:0", "truncate@50%:65536",
                      "reorder@50%:3", "reboot-before@50%", "reboot-after@random", "reboot@request:bogus",
                      "battery@request:reset"])
    func malformedNewFaultsAreRefused(fault: String) throws {
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:fault=" + fault) }
    }
}

@Suite struct SimOptionsEqualSlotsTests {
    @Test(arguments: [("direct-xip", MCUbootSwapMode.directXIP), ("direct-xip-revert", .directXIPWithRevert),
                      ("ram-load", .ramLoad), ("ram-load-revert", .ramLoadWithRevert)])
    func bootloaderNamesTheEqualSlotModes(value: String, mode: MCUbootSwapMode) throws {
        var options = SimOptions()
        try options.set("bootloader", to: value)
        #expect(options.swapMode == mode)
        #expect(try options.deviceConfiguration().swapMode == mode)
    }

    @Test func anUnknownBootloaderSaysWhatItTakes() {
        var options = SimOptions()
        #expect(throws: SimOptionsError.self) { try options.set("bootloader", to: "swap-everything") }
    }
}
