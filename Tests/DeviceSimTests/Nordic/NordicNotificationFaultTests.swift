import DFUCore
import DeviceSim
import Testing
import Transport

/// `sim:cp_fault=`: the Nth answer to one Control Point request, sent with its last byte inverted,
/// without it, not at all or twice; once, and the bootloader itself unchanged.
@Suite struct NordicNotificationFaultTests {
    private func select(_ options: String) throws -> [[UInt8]] {
        var device = try SimOptions.parse("sim:protocol=nordic,inactivity=off" + (options.isEmpty ? "" : "," + options))
            .makeNordicDevice()
        let now = MonotonicInstant(sinceOrigin: .zero)
        _ = device.handle(.connected, now: now)
        _ = device.handle(.subscribed(NordicDeviceGATT.buttonless), now: now)
        _ = device.handle(.write(NordicDeviceGATT.buttonless, [0x01], withResponse: true), now: now)
        _ = device.handle(.disconnected, now: now)
        let booted = try #require(device.nextDeadline)
        _ = device.handle(.tick, now: booted)
        _ = device.handle(.connected, now: booted)
        _ = device.handle(.subscribed(NordicDeviceGATT.controlPoint), now: booted)
        var answers: [[UInt8]] = []
        for _ in 0 ..< 3 {
            for action in device.handle(.write(NordicDeviceGATT.controlPoint, [0x06, 0x01], withResponse: true), now: booted) {
                if case .notify(NordicDeviceGATT.controlPoint, let bytes) = action { answers.append(bytes) }
            }
        }
        return answers
    }

    @Test func theNthAnswerIsCorruptedOnce() throws {
        let plain = try select("")
        let damaged = try select("cp_fault=corrupt@select:2")
        #expect(plain.count == 3 && damaged.count == 3)
        #expect(damaged[0] == plain[0] && damaged[2] == plain[2])
        #expect(damaged[1].dropLast() == plain[1].dropLast() && damaged[1].last == plain[1].last.map { $0 ^ 0xFF })
    }

    @Test func truncateLeavesOutTheLastByte() throws {
        let plain = try select("")
        let damaged = try select("cp_fault=truncate@select:1+corrupt@select:3")
        #expect(damaged[0] == Array(plain[0].dropLast()))
        #expect(damaged[1] == plain[1])
        #expect(damaged[2].count == plain[2].count && damaged[2] != plain[2])
    }

    @Test func dropSendsNothingAndDuplicateSendsTwice() throws {
        let plain = try select("")
        let faulty = try select("cp_fault=drop@select:1+duplicate@select:3")
        #expect(faulty == [plain[1], plain[2], plain[2]])
    }

    @Test func optionsParseAndPrintBack() throws {
        let options = try SimOptions.parse("sim:protocol=nordic,cp_fault=corrupt@checksum:5+truncate@execute:2+drop@create:1+duplicate@prn:3")
        #expect(try options.nordicDeviceConfiguration().notificationFaults.map(\.description)
                == ["corrupt@checksum:5", "truncate@execute:2", "drop@create:1", "duplicate@prn:3"])
        #expect(options.canonicalText.contains("cp_fault=corrupt@checksum:5+truncate@execute:2+drop@create:1+duplicate@prn:3"))
    }

    @Test(arguments: ["corrupt@checksum", "corrupt@checksum:0", "flip@checksum:1", "corrupt@reset:1", "truncate@create:x"])
    func malformedFaultsAreRefused(value: String) throws {
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:protocol=nordic,cp_fault=" + value) }
    }

    @Test func anSMPDeviceRefusesIt() throws {
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:cp_fault=corrupt@checksum:1") }
    }
}
