import DFUCore
import ReferenceDevices
import Testing
import Transport

@Suite struct UpdateFlowTests {
    @Test func wholeUpdateFromApplicationThroughButtonlessActivatesTheNewApplication() throws {
        let update = try Update.application(size: 10_000, version: 2)
        var bench = Bench(Update.config())
        #expect(bench.device.mode == .application)
        #expect(bench.device.read(SDKGATT.firmwareRevision) == .success(Array("1".utf8)))

        bench.connect(subscribing: SDKGATT.buttonless)
        let entered = bench.buttonless([0x01])
        #expect(entered.notification == [0x20, 0x01, 0x01])
        #expect(entered.actions.contains(.stopAdvertising(bench.config.applicationIdentity)))
        #expect(entered.droppedLink == .reset)
        #expect(bench.device.mode == .booting)
        bench.finishReset()
        #expect(bench.device.mode == .bootloader)
        #expect(bench.device.advertisement == SDKAdvertisement(
            identity: PeerIdentity("F0:12:34:56:78:9B"), name: "DfuTarg", serviceUUIDs: [SDKGATT.dfuService]))

        bench.connectBootloader()
        let select = bench.cp([0x06, 0x01])
        #expect(select.words == [512, 0, 0])
        #expect(bench.sendInitPacket(update.initPacket) == [0x60, 0x04, 0x01])
        #expect(bench.cp([0x06, 0x02]).words == [4096, 0, 0])
        let last = bench.sendImage(update.image, prn: 0)
        #expect(last == [0x60, 0x04, 0x01])
        #expect(bench.log.last == .dropLink(.reset) || bench.log.contains(.dropLink(.reset)))
        bench.finishReset()

        #expect(bench.device.mode == .application)
        #expect(bench.device.runningApplicationVersion == 2)
        #expect(bench.device.read(SDKGATT.firmwareRevision) == .success(Array("2".utf8)))
        let counters = bench.device.counters
        #expect(counters.resets == 2)
        #expect(counters.commandObjectsExecuted == 1)
        #expect(counters.dataObjectsExecuted == 3)
        #expect(counters.bytesReceived == update.initPacket.count + update.image.count)
        #expect(counters.updatesActivated == 1)
    }

    @Test func checksumsChainOverTheWholeImageAndReceiptsComeEveryNPackets() throws {
        let update = try Update.application(size: 9000)
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.sendInitPacket(update.initPacket) == [0x60, 0x04, 0x01])
        #expect(bench.cp([0x02, 0x02, 0x00]).notification == [0x60, 0x02, 0x01])
        #expect(bench.cp([0x01, 0x02] + le32(4096)).notification == [0x60, 0x01, 0x01])
        #expect(bench.packet(Array(update.image[0 ..< 200])).notification == nil)
        let receipt = bench.packet(Array(update.image[200 ..< 400]))
        #expect(receipt.notification?.prefix(3) == [0x60, 0x03, 0x01])
        #expect(receipt.words == [400, crc32(update.image[0 ..< 400])])
        // Create restarts the count: one more packet after it gives no receipt.
        #expect(bench.cp([0x01, 0x02] + le32(4096)).notification == [0x60, 0x01, 0x01])
        #expect(bench.packet(Array(update.image[0 ..< 100])).notification == nil)
        #expect(bench.cp([0x06, 0x02]).words == [4096, 100, crc32(update.image[0 ..< 100])])
        #expect(bench.cp([0x03]).words == [100, crc32(update.image[0 ..< 100])])
    }

    @Test func bootloaderAddsOneToTheLastOctetWithoutCarry() {
        #expect(BootloaderAddress.incrementedApplicationAddress.identity(
            forApplicationAt: PeerIdentity("AA:BB:CC:DD:EE:FF")) == PeerIdentity("AA:BB:CC:DD:EE:00"))
        #expect(BootloaderAddress.incrementedApplicationAddress.identity(
            forApplicationAt: PeerIdentity("AA:BB:CC:DD:EE:0F")) == PeerIdentity("AA:BB:CC:DD:EE:10"))
        #expect(BootloaderAddress.fixed(PeerIdentity("C3:00:00:00:00:01")).identity(
            forApplicationAt: PeerIdentity("AA:BB:CC:DD:EE:FF")) == PeerIdentity("C3:00:00:00:00:01"))
    }

    @Test func bootloaderWithItsOwnAddressAdvertisesThere() {
        var bench = Bench(Update.config { $0.bootloaderAddress = .fixed(PeerIdentity("C3:00:00:00:00:01")) })
        bench.enterBootloader()
        #expect(bench.device.advertisement?.identity == PeerIdentity("C3:00:00:00:00:01"))
        // Connecting to the application's address reaches nothing now.
        #expect(bench.send(.connected(bench.config.applicationIdentity)) == [.dropLink(.notAdvertising)])
    }

    @Test func failedFinalValidationResetsAndTheOldApplicationRuns() throws {
        var update = try Update.application(size: 8192)
        update.image[100] ^= 0xFF
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.sendInitPacket(update.initPacket) == [0x60, 0x04, 0x01])
        #expect(bench.sendImage(update.image) == [0x60, 0x04, 0x0B, 0x0C])
        bench.finishReset()
        #expect(bench.device.mode == .application)
        #expect(bench.device.runningApplicationVersion == 1)
        #expect(bench.device.counters.updatesActivated == 0)
    }

    @Test func packetWritesNotAMultipleOfFourCountButCorruptFlash() throws {
        let update = try Update.application(size: 4096)
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.sendInitPacket(update.initPacket) == [0x60, 0x04, 0x01])
        // 242-byte writes: offsets and CRC count every byte, but flash keeps whole words only and
        // refuses unaligned addresses, so the image in flash is not the one sent.
        #expect(bench.sendImage(update.image, chunk: 242) == [0x60, 0x04, 0x0B, 0x0C])
        #expect(bench.device.counters.dataObjectsExecuted == 1)
    }

    @Test func secondExecuteOfAnExecutedObjectSucceedsAndOfAnEmptyObjectIsRefused() throws {
        let update = try Update.application(size: 9000)
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.sendInitPacket(update.initPacket) == [0x60, 0x04, 0x01])
        #expect(bench.cp([0x04]).notification == [0x60, 0x04, 0x01])  // command again: not re-checked
        _ = bench.cp([0x01, 0x02] + le32(4096))
        for start in stride(from: 0, to: 4096, by: 244) { _ = bench.packet(Array(update.image[start ..< min(4096, start + 244)])) }
        #expect(bench.cp([0x04]).notification == [0x60, 0x04, 0x01])
        #expect(bench.cp([0x04]).notification == [0x60, 0x04, 0x01])
        _ = bench.cp([0x01, 0x02] + le32(4096))
        #expect(bench.cp([0x04]).notification == [0x60, 0x04, 0x08])
    }

    @Test func inactivityTimeoutResetsIntoTheValidApplication() {
        var bench = Bench(Update.config())
        bench.enterBootloader()
        #expect(bench.device.nextDeadline == bench.now.advanced(by: .seconds(120)))
        bench.advance(.seconds(119))
        #expect(bench.device.mode == .bootloader)
        #expect(bench.advance(.seconds(1)).contains(.stopAdvertising(bench.device.configuration.bootloaderIdentity)))
        bench.advance(.milliseconds(100))
        #expect(bench.device.mode == .application)
        #expect(bench.device.counters.resets == 2)
    }

    @Test func packetWritesLongerThanTheAttributeAreDropped() throws {
        let update = try Update.application(size: 4096)
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.sendInitPacket(update.initPacket) == [0x60, 0x04, 0x01])
        _ = bench.cp([0x01, 0x02] + le32(4096))
        _ = bench.packet([UInt8](repeating: 1, count: 248))
        #expect(bench.cp([0x03]).words == [0, 0])
    }

    @Test func abortResetsWithoutAnAnswer() {
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        let reply = bench.cp([0x0C])
        #expect(reply.notification == nil)
        #expect(reply.droppedLink == .reset)
        bench.finishReset()
        #expect(bench.device.mode == .application)
    }
}
