import DFUCore
import DeviceSim
import Testing
import NordicTestSupport

/// Init commands built by the test (see `NordicTestInitPacket`): the §4.3 checks the nrfutil
/// samples cannot reach, and a final object shorter than a page.
@Suite struct NordicBootloaderInitCommandTests {
    static let firmware: [UInt8] = (0 ..< 5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    func execute(_ packet: NordicTestInitPacket, sdk: NordicSDKVersion = .sdk17) throws -> (NordicBench, [UInt8]) {
        var bench = NordicBench(try NordicBench.configuration(sdk: sdk))
        let answer = try bench.sendInitPacket(try packet.signed())
        return (bench, answer)
    }

    @Test func builtPacketIsAcceptedAndItsShortLastObjectCompletesTheUpdate() throws {
        var (bench, answer) = try execute(NordicTestInitPacket(firmware: Self.firmware))
        #expect(answer == [0x60, 0x04, 0x01])
        // 5000 bytes: one page, then 904 that end the image. A short object elsewhere is refused.
        #expect(try bench.create(0x02, size: 904) == [0x60, 0x01, 0x03])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        _ = bench.send(Self.firmware[0 ..< 4096])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 1000) == [0x60, 0x01, 0x03])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x08], "runs past the image")
        #expect(try bench.create(0x02, size: 904) == [0x60, 0x01, 0x01])
        _ = bench.send(Self.firmware[4096 ..< 5000])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        #expect(bench.resetCause == .updated(.application, version: 3))
    }

    @Test func typeOutsideAppSoftDeviceBootloaderIsExtended04() throws {
        var packet = NordicTestInitPacket(firmware: Self.firmware)
        packet.type = 4   // EXTERNAL_APPLICATION
        #expect(try execute(packet).1 == [0x60, 0x04, 0x0B, 0x04])
        packet.type = nil
        #expect(try execute(packet).1 == [0x60, 0x04, 0x0B, 0x04])
    }

    @Test func hashOtherThanSHA256IsExtended09() throws {
        var packet = NordicTestInitPacket(firmware: Self.firmware)
        packet.hashType = 1   // CRC
        #expect(try execute(packet).1 == [0x60, 0x04, 0x0B, 0x09])
    }

    @Test func missingHardwareVersionIsExtended04() throws {
        var packet = NordicTestInitPacket(firmware: Self.firmware)
        packet.hwVersion = nil
        #expect(try execute(packet).1 == [0x60, 0x04, 0x0B, 0x04])
    }

    @Test func missingFirmwareVersionIsExtended04WithDowngradePrevention() throws {
        var packet = NordicTestInitPacket(firmware: Self.firmware)
        packet.fwVersion = nil
        #expect(try execute(packet).1 == [0x60, 0x04, 0x0B, 0x04])
    }

    @Test func wrongSignatureTypeIsExtended0B() throws {
        var packet = NordicTestInitPacket(firmware: Self.firmware)
        packet.signatureType = 1   // ED25519
        #expect(try execute(packet).1 == [0x60, 0x04, 0x0B, 0x0B])
    }

    @Test func imageLargerThanTheApplicationAreaIs04() throws {
        var packet = NordicTestInitPacket(firmware: Self.firmware)
        packet.appSize = 0x60000
        #expect(try execute(packet).1 == [0x60, 0x04, 0x04])
    }

    @Test func missingSizeIsExtended04YetSDK15CountsTheCommandAsValid() throws {
        var packet = NordicTestInitPacket(firmware: Self.firmware)
        packet.appSize = nil
        var (bench, answer) = try execute(packet, sdk: .sdk15)
        #expect(answer == [0x60, 0x04, 0x0B, 0x04])
        // SDK 15.0's nrf_dfu_validation_init_cmd_execute sets the valid flag once the versions
        // pass: a second Execute succeeds, but with no image size no data object fits.
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x08])
    }

    @Test func missingSizeIsExtended04AndSDK17StartsTheInitCommandOver() throws {
        var packet = NordicTestInitPacket(firmware: Self.firmware)
        packet.appSize = nil
        var (bench, answer) = try execute(packet, sdk: .sdk17)
        #expect(answer == [0x60, 0x04, 0x0B, 0x04])
        // SDK 16/17 reset the progress after any refusal: the command object is empty again.
        #expect(try bench.select(0x01).offset == 0)
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x08])
    }

    @Test func appThatBringsItsOwnSoftDeviceSkipsTheSoftDeviceCheck() throws {
        var packet = NordicTestInitPacket(firmware: Self.firmware)
        packet.sdReq = [0x00]
        #expect(try execute(packet).1 == [0x60, 0x04, 0x01])
        // With more entries after 0x00 the installed one must be among them.
        packet.sdReq = [0x00, 0x0102]
        #expect(try execute(packet).1 == [0x60, 0x04, 0x0B, 0x07])
        packet.sdReq = [0x00, 0x0101]
        #expect(try execute(packet).1 == [0x60, 0x04, 0x01])
    }
}
