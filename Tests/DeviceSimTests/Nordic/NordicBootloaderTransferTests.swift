import DFUCore
import DeviceSim
import Testing
import Transport

/// Whole transfers against the bootloader model: the signed sample, PRN, dropped packets, resume.
@Suite struct NordicBootloaderTransferTests {
    @Test func signedSampleUpdatesAndResetsIntoTheNewApplication() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.select(0x01) == (512, 0, 0))
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(bench.bootloader.storedSettings.initCommandValid)
        #expect(try bench.select(0x02) == (4096, 0, 0))
        #expect(try bench.sendFirmware(image.firmware) == [0x60, 0x04, 0x01])
        #expect(bench.resetCause == .updated(.application, version: 3))
        #expect(bench.bootloader.storedSettings.appVersion == 3)
        #expect(!bench.bootloader.storedSettings.initCommandValid)
        // After the reset request nothing more is handled.
        #expect(bench.handle(.controlPointWrite([0x06, 0x01])).isEmpty)
    }

    @Test func sdk15CommandObjectIs256Bytes() throws {
        var bench = NordicBench(try NordicBench.configuration(sdk: .sdk15))
        #expect(try bench.select(0x01).max == 256)
        #expect(try bench.create(0x01, size: 257) == [0x60, 0x01, 0x04])
        #expect(try bench.create(0x01, size: 256) == [0x60, 0x01, 0x01])
    }

    @Test func receiptNotificationComesEveryNWritesAndRestartsOnCreate() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.result([0x02, 0x03, 0x00]) == [0x60, 0x02, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        // 4096 bytes in 16 writes of 256: receipts after writes 3, 6, 9, 12, 15.
        let receipts = bench.send(image.firmware[0 ..< 4096], chunk: 256)
        #expect(receipts.count == 5)
        let expected = [3, 6, 9, 12, 15].map { n in
            [0x60, 0x03, 0x01] + NordicBench.le32(UInt32(n * 256)) + NordicBench.le32(CRC32.checksum(image.firmware[0 ..< n * 256]))
        }
        #expect(receipts == expected)
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        // One write left over in the countdown (16 % 3); Create starts it again at 3.
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        #expect(bench.send(image.firmware[4096 ..< 4096 + 512], chunk: 256).isEmpty)
        #expect(bench.send(image.firmware[4096 + 512 ..< 4096 + 768], chunk: 256).count == 1)
        // PRN 0 turns them off.
        #expect(try bench.result([0x02, 0x00, 0x00]) == [0x60, 0x02, 0x01])
        #expect(bench.send(image.firmware[4096 + 768 ..< 8192], chunk: 256).isEmpty)
    }

    @Test func injectedBufferDropShowsOnlyInOffsetAndCRC() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        // The init packet takes writes 1 (141 bytes, one chunk); write 3 is the second data write.
        var bench = NordicBench(try NordicBench.configuration(drops: [3]))
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.result([0x02, 0x04, 0x00]) == [0x60, 0x02, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        let receipts = bench.send(image.firmware[0 ..< 1024], chunk: 256)
        // Four writes sent, three counted: no receipt yet.
        #expect(receipts.isEmpty)
        #expect(try bench.checksum() == (768, CRC32.checksum(image.firmware[0 ..< 256] + image.firmware[512 ..< 1024])))
        // Execute refuses the short object; a re-created object starts at 0 again.
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x08])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        #expect(try bench.checksum() == (0, 0))
    }

    @Test func writeNotAMultipleOfFourIsDroppedAndItsReceiptReportsZero() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.result([0x02, 0x01, 0x00]) == [0x60, 0x02, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        #expect(bench.send(image.firmware[0 ..< 8]) == [[0x60, 0x03, 0x01, 8, 0, 0, 0] + NordicBench.le32(CRC32.checksum(image.firmware[0 ..< 8]))])
        #expect(bench.send(image.firmware[8 ..< 15]) == [[0x60, 0x03, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]])
        #expect(bench.lastActions.contains(.dropped(.unalignedLength(7))))
        #expect(try bench.checksum() == (8, CRC32.checksum(image.firmware[0 ..< 8])))
    }

    @Test func overflowingWriteIsRefusedAndTheReceiptCarriesTheError() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.result([0x02, 0x01, 0x00]) == [0x60, 0x02, 0x01])
        #expect(try bench.create(0x01, size: 8) == [0x60, 0x01, 0x01])
        #expect(bench.send(image.initPacket.bytes[0 ..< 12]) == [[0x60, 0x03, 0x03]])
        #expect(try bench.checksum() == (0, 0))
    }

    @Test(arguments: [NordicSDKVersion.sdk15, .sdk16, .sdk17])
    func linkDropKeepsRAMProgressOnlyOnSDK15(sdk: NordicSDKVersion) throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration(sdk: sdk))
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        _ = bench.send(image.firmware[0 ..< 4096])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        _ = bench.send(image.firmware[4096 ..< 6144])
        _ = bench.handle(.disconnected)
        _ = bench.handle(.connected)
        // Notifications are off again on the new connection: the CP refuses writes until subscribed.
        #expect(bench.handle(.controlPointWrite([0x06, 0x01])) == [.refuseWrite(NordicBootloader.cccdImproperlyConfigured)])
        _ = bench.handle(.subscribed)
        let dat = image.initPacket.bytes
        #expect(try bench.select(0x01) == (UInt32(sdk.commandObjectMaxSize), UInt32(dat.count), CRC32.checksum(dat)))
        let data = try bench.select(0x02)
        if sdk == .sdk15 {
            #expect(data == (4096, 6144, CRC32.checksum(image.firmware[0 ..< 6144])))
            // Resume inside the object: no Create.
            _ = bench.send(image.firmware[6144 ..< 8192])
            #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
            #expect(try bench.sendFirmware(image.firmware, from: 8192) == [0x60, 0x04, 0x01])
        } else {
            #expect(data == (4096, 0, 0))
            // The executed init command stays: Execute again succeeds without Create.
            _ = try bench.select(0x01)
            #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
            #expect(try bench.sendFirmware(image.firmware) == [0x60, 0x04, 0x01])
        }
        #expect(bench.resetCause == .updated(.application, version: 3))
    }

    @Test func executeCommandAgainStoresTheDataProgressThatSDK17ThenRevertsTo() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration(sdk: .sdk17))
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        _ = bench.send(image.firmware[0 ..< 4096])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        // Every successful Execute(command) writes the settings, the RAM data progress with them.
        _ = try bench.select(0x01)
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        _ = bench.send(image.firmware[4096 ..< 6144])
        _ = bench.handle(.disconnected)
        _ = bench.handle(.connected)
        _ = bench.handle(.subscribed)
        #expect(try bench.select(0x02) == (4096, 4096, CRC32.checksum(image.firmware[0 ..< 4096])))
        #expect(try bench.sendFirmware(image.firmware, from: 4096) == [0x60, 0x04, 0x01])
        #expect(bench.resetCause == .updated(.application, version: 3))
    }

    @Test func secondExecuteOfAnExecutedObjectSucceedsButOfAnEmptyCreatedOneIsRefused() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        _ = bench.send(image.firmware[0 ..< 4096])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x08])
        // The command object executed already: a second Execute succeeds without validating again.
        #expect(try bench.select(0x01).offset == UInt32(image.initPacket.bytes.count))
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
    }

    @Test func abortResetsIntoTheOldApplicationKeepingTheStoredInitCommand() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.result([0x0C]) == [0x60, 0x0C, 0x01])
        #expect(bench.resetCause == .aborted)
        #expect(bench.bootloader.storedSettings.initCommandValid)
        #expect(bench.bootloader.storedSettings.appVersion == 1)
    }

    @Test func inactivityTimeoutLeavesDFUModeAndActivityPostponesIt() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration())
        #expect(bench.bootloader.nextDeadline == MonotonicInstant(sinceOrigin: .seconds(120)))
        bench.now = MonotonicInstant(sinceOrigin: .seconds(100))
        // Create(command) restarts the timer; a Select does not.
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(bench.bootloader.nextDeadline == MonotonicInstant(sinceOrigin: .seconds(220)))
        bench.now = MonotonicInstant(sinceOrigin: .seconds(219))
        _ = try bench.select(0x02)
        #expect(bench.handle(.tick).isEmpty)
        bench.now = MonotonicInstant(sinceOrigin: .seconds(220))
        #expect(bench.handle(.tick) == [.reset(.inactivity)])
        #expect(bench.bootloader.nextDeadline == nil)
    }
}

/// `sim:drop=`: the bootloader answers, then closes the link itself, and keeps what a drop keeps.
@Suite struct NordicBootloaderLinkDropTests {
    @Test func theLinkDropsRightAfterTheSecondDataCreateIsAnswered() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var configuration = try NordicBench.configuration(sdk: .sdk15)
        configuration.linkDrops = [.afterCreate(2)]
        var bench = NordicBench(configuration)
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        #expect(!bench.lastActions.contains { if case .dropLink = $0 { true } else { false } })
        _ = bench.send(image.firmware[0 ..< 4096])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        #expect(bench.lastActions.last == .dropLink(.afterCreate(2)), "the answer first, then the drop")
        // SDK 15 keeps its RAM progress over a drop: the next central's Select sees object 1 done.
        _ = bench.handle(.connected)
        _ = bench.handle(.subscribed)
        #expect(try bench.select(0x02).offset == 4096)
    }

    @Test func sdk17GoesBackToItsSettingsPageWhenItDropsTheLinkInsideAnObject() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var configuration = try NordicBench.configuration(sdk: .sdk17)
        configuration.linkDrops = [.afterPacket(10)]
        var bench = NordicBench(configuration)
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        let initWrites = bench.bootloader.packetWriteCount
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        var dropped = false
        for packet in 0 ..< 16 where !dropped {
            _ = bench.handle(.packetWrite(Array(image.firmware[packet * 256 ..< (packet + 1) * 256])))
            dropped = bench.lastActions.contains(.dropLink(.afterPacket(10)))
            #expect(!dropped || bench.bootloader.packetWriteCount == 10, "\(initWrites)")
        }
        #expect(dropped)
        _ = bench.handle(.connected)
        _ = bench.handle(.subscribed)
        #expect(try bench.select(0x02).offset == 0)
    }
}
