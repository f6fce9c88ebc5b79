import ReferenceDevices
import Testing
import Transport

/// What survives a dropped link and a reset, per SDK, and each injected fault.
@Suite struct LinkLossTests {
    /// A bootloader with the init packet executed and `bytes` of the image sent (objects executed
    /// while whole), and the fault plan that dropped the link inside object 2 after 1952 bytes.
    static func interrupted(_ update: Update, _ edit: (inout SDKDeviceConfiguration) -> Void = { _ in }) -> Bench {
        var bench = Bench(Update.config {
            $0.faults.dropInsideDataObject = .init(object: 2, bytes: 1952)
            edit(&$0)
        })
        bench.enterBootloader()
        bench.connectBootloader()
        _ = bench.sendInitPacket(update.initPacket)
        _ = bench.sendImage(update.image)
        #expect(bench.log.contains(.dropLink(.fault)))
        #expect(bench.device.counters.faultsInjected == 1)
        bench.send(.disconnected)
        bench.connectBootloader()
        return bench
    }

    @Test func sdk17ForgetsDataProgressOnLinkLossButKeepsTheInitCommand() throws {
        let update = try Update.application(size: 10_000)
        var bench = Self.interrupted(update)
        #expect(bench.cp([0x06, 0x01]).words == [512, UInt32(update.initPacket.count), crc32(update.initPacket)])
        #expect(bench.cp([0x06, 0x02]).words == [4096, 0, 0])
        // The init command is still accepted: data objects can be created without executing it again.
        #expect(bench.sendImage(update.image) == [0x60, 0x04, 0x01])
        bench.finishReset()
        #expect(bench.device.runningApplicationVersion == 2)
    }

    @Test func sdk15KeepsRAMProgressSoTheObjectResumesWhereItStopped() throws {
        let update = try Update.application(size: 10_000)
        var bench = Self.interrupted(update) { $0.sdkVersion = .v15_0 }
        let offset = 4096 + 1952
        #expect(bench.cp([0x06, 0x02]).words == [4096, UInt32(offset), crc32(update.image.prefix(offset))])
        for start in stride(from: offset, to: 8192, by: 244) {
            _ = bench.packet(Array(update.image[start ..< min(8192, start + 244)]))
        }
        #expect(bench.cp([0x04]).notification == [0x60, 0x04, 0x01])
        #expect(bench.sendImage(update.image, from: 8192) == [0x60, 0x04, 0x01])
        bench.finishReset()
        #expect(bench.device.runningApplicationVersion == 2)
    }

    @Test func savedProgressSurvivesLinkLossAndResetInSDK17() throws {
        let update = try Update.application(size: 10_000)
        var bench = Self.interrupted(update) { $0.saveProgressInFlash = true }
        #expect(bench.cp([0x06, 0x02]).words == [4096, 4096, crc32(update.image.prefix(4096))])
        // Also across a reset: timeout, then back in through buttonless.
        bench.advance(.seconds(120))
        bench.finishReset()
        #expect(bench.device.mode == .application)
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.cp([0x06, 0x01]).words == [512, UInt32(update.initPacket.count), crc32(update.initPacket)])
        #expect(bench.cp([0x06, 0x02]).words == [4096, 4096, crc32(update.image.prefix(4096))])
        #expect(bench.sendImage(update.image, from: 4096) == [0x60, 0x04, 0x01])
    }

    @Test func withoutSavedProgressAResetKeepsOnlyTheExecutedInitCommand() throws {
        let update = try Update.application(size: 10_000)
        var bench = Self.interrupted(update) { $0.sdkVersion = .v15_0 }
        bench.advance(.seconds(120))
        bench.finishReset()
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.cp([0x06, 0x01]).words == [256, UInt32(update.initPacket.count), crc32(update.initPacket)])
        #expect(bench.cp([0x06, 0x02]).words == [4096, 0, 0])
        #expect(bench.sendImage(update.image) == [0x60, 0x04, 0x01])
    }

    @Test func dropAfterTheNthCreateComesAfterItsAnswer() throws {
        let update = try Update.application(size: 10_000)
        var bench = Bench(Update.config {
            $0.sdkVersion = .v15_0
            $0.faults.dropAfterCreate = 2
        })
        bench.enterBootloader()
        bench.connectBootloader()
        _ = bench.sendInitPacket(update.initPacket)
        // Everything after the drop is ignored, so the helper sees no answer to its next request.
        #expect(bench.sendImage(update.image) == nil)
        let tail = bench.log.suffix(2)
        #expect(tail.first == .notify([0x60, 0x01, 0x01], on: SDKGATT.controlPoint))
        #expect(tail.last == .dropLink(.fault))
        // Writes after the device decided to drop go nowhere.
        #expect(bench.cp([0x06, 0x02]).actions.isEmpty)
        bench.send(.disconnected)
        bench.connectBootloader()
        #expect(bench.cp([0x06, 0x02]).words == [4096, 4096, crc32(update.image.prefix(4096))])
        // The created object is empty: executing it is refused.
        #expect(bench.cp([0x04]).notification == [0x60, 0x04, 0x08])
        #expect(bench.sendImage(update.image, from: 4096) == [0x60, 0x04, 0x01])
    }

    @Test func dropAfterTheNthExecuteComesAfterItsAnswerAndExecutingAgainSucceeds() throws {
        let update = try Update.application(size: 10_000)
        var bench = Bench(Update.config {
            $0.sdkVersion = .v15_0
            $0.faults.dropAfterExecute = 1
        })
        bench.enterBootloader()
        bench.connectBootloader()
        _ = bench.sendInitPacket(update.initPacket)
        #expect(bench.sendImage(update.image) == nil)
        #expect(bench.log.suffix(2) == [.notify([0x60, 0x04, 0x01], on: SDKGATT.controlPoint), .dropLink(.fault)])
        #expect(bench.device.counters.dataObjectsExecuted == 1)
        bench.send(.disconnected)
        bench.connectBootloader()
        #expect(bench.cp([0x06, 0x02]).words == [4096, 4096, crc32(update.image.prefix(4096))])
        #expect(bench.cp([0x04]).notification == [0x60, 0x04, 0x01])
        #expect(bench.sendImage(update.image, from: 4096) == [0x60, 0x04, 0x01])
    }

    @Test func dropAfterTheCommandExecuteCanBeChosen() throws {
        let update = try Update.application(size: 4096)
        var bench = Bench(Update.config {
            $0.faults.dropAfterExecute = 1
            $0.faults.dropAfterExecuteOf = .command
        })
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.sendInitPacket(update.initPacket) == [0x60, 0x04, 0x01])
        #expect(bench.log.last == .dropLink(.fault))
        bench.send(.disconnected)
        bench.connectBootloader()
        // Executed init commands are written to flash, so SDK 17's reload keeps it.
        #expect(bench.cp([0x06, 0x01]).words == [512, UInt32(update.initPacket.count), crc32(update.initPacket)])
        #expect(bench.sendImage(update.image) == [0x60, 0x04, 0x01])
    }

    @Test func anInitCommandNotYetExecutedIsLostWithTheLinkInSDK17() throws {
        let update = try Update.application()
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        _ = bench.cp([0x01, 0x01] + le32(UInt32(update.initPacket.count)))
        _ = bench.packet(Array(update.initPacket.prefix(40)))
        #expect(bench.cp([0x06, 0x01]).words == [512, 40, crc32(update.initPacket.prefix(40))])
        bench.send(.disconnected)
        bench.connectBootloader()
        #expect(bench.cp([0x06, 0x01]).words == [512, 0, 0])
    }
}
