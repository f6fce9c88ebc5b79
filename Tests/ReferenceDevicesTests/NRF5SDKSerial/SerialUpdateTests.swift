import DFUCore
import ReferenceDevices
import Testing
import Transport

/// Whole updates over serial with the packages pc-nrfutil 6.1.7 made (`firmware-samples/nordic`), in
/// pc-nrfutil's order of requests (dfu_transport_serial.py: ping, Set PRN, MTU, then the init packet
/// and the firmware).
@Suite struct SerialUpdateTests {
    static func config(_ variant: SDKSerialVariant = .uart,
                       _ edit: (inout SDKSerialDeviceConfiguration) -> Void = { _ in }) throws -> SDKSerialDeviceConfiguration {
        var configuration = SDKSerialDeviceConfiguration(variant: variant, publicKey: try NordicPackage.key())
        edit(&configuration)
        return configuration
    }

    @Test(arguments: SDKSerialVariant.allCases)
    func wholeUpdateOverSerialStartsTheNewApplication(variant: SDKSerialVariant) throws {
        let package = try NordicPackage("app-signed-3.zip")
        // The USB example's S140 7.2.0 (FWID 0x0100) is not one the package names: give it S132's.
        var bench = SerialBench(try Self.config(variant) { $0.bootloader.softDeviceFWID = 0x0101 })
        #expect(bench.device.mode == .bootloader)
        #expect(bench.counters.boots == 1)

        let mtu = bench.open()
        #expect(mtu == variant.slipMTU)
        let chunk = SerialBench.chunk(forMTU: mtu)
        #expect(chunk == variant.receiveBufferSize)
        #expect(bench.sendInitPacket(package.initPacket, chunk: chunk) == [0x60, 0x04, 0x01])
        #expect(words(bench.request(SerialRequestBytes.select(0x02))) == [4096, 0, 0])
        #expect(bench.sendFirmware(package.firmware, chunk: chunk) == [0x60, 0x04, 0x01])

        // The answer is out; the device resets, its port goes, and the new application comes up.
        #expect(bench.device.mode == .booting)
        #expect(bench.log.contains(.detach))
        bench.advance(bench.config.bootloader.bootTime)
        #expect(bench.device.mode == .application)
        #expect(bench.log.last == .attach)
        #expect(bench.device.runningApplicationVersion == 3)
        let counters = bench.counters
        #expect(counters.boots == 2)
        #expect(counters.resets == 1)
        #expect(counters.updatesActivated == 1)
        #expect(counters.commandObjectsExecuted == 1)
        #expect(counters.dataObjectsExecuted == 12)
        #expect(counters.bytesReceived == package.initPacket.count + package.firmware.count)
        #expect(counters.pings == 1)
        #expect(counters.mtuRequests == 1)
        #expect(counters.responsesLost == 0)
        #expect(counters.framesDropped.isEmpty && counters.bytesLost.isEmpty)
        #expect(counters.receiveBufferShortages == 0 && counters.writeBuffersLeaked == 0)

        // The application answers nothing.
        #expect(bench.request(SerialRequestBytes.ping(2)) == nil)
        #expect(bench.counters.bytesLost[.application] == 3)
    }

    @Test func usbExampleWithS140RefusesAPackageForS132() throws {
        let package = try NordicPackage("app-signed-3.zip")
        var bench = SerialBench(try Self.config(.usb))
        let chunk = SerialBench.chunk(forMTU: bench.open())
        // nrf_dfu_ver_validation.c sd_req_ok: 0x0101 is not the installed FWID 0x0100.
        #expect(bench.sendInitPacket(package.initPacket, chunk: chunk) == [0x60, 0x04, 0x0B, 0x07])
    }

    @Test func serialBootloaderWithoutSoftDeviceRefusesAnUpdateThatNeedsOne() throws {
        let package = try NordicPackage("app-signed-3.zip")
        var bench = SerialBench(try Self.config {
            $0.bootloader.softDevicePresent = false
            $0.bootloader.applicationStart = 0x1000
        })
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x0B, 0x07])
    }

    @Test func bootloaderUpdateIsActivatedAndTheOldApplicationRuns() throws {
        let package = try NordicPackage("bootloader-signed-2.zip")
        var bench = SerialBench(try Self.config())
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x01])
        #expect(bench.sendFirmware(package.firmware, chunk: 64) == [0x60, 0x04, 0x01])
        bench.advance(bench.config.bootloader.bootTime)
        #expect(bench.device.bootloaderVersion == 2)
        #expect(bench.device.mode == .application)
        #expect(bench.device.runningApplicationVersion == 1)
    }

    @Test func keyOtherThanTheSignersRefusesTheInitPacket() throws {
        let package = try NordicPackage("app-signed-3.zip")
        let other = try NordicPackage.key("TEST-ONLY-nordic-other-p256")
        var bench = SerialBench(try Self.config { $0.bootloader.publicKey = other })
        // nrf_dfu_validation_signature_check: a signature that does not verify is 05.
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x05])
    }

    @Test func flippedFirmwareByteFailsTheLastExecuteAndTheBootloaderComesBack() throws {
        let package = try NordicPackage("broken/flipped-firmware-byte.zip")
        var bench = SerialBench(try Self.config { $0.applicationInstalled = false })
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x01])
        // postvalidate: the hash does not match (extended error 0C); the device resets anyway.
        #expect(bench.sendFirmware(package.firmware, chunk: 64) == [0x60, 0x04, 0x0B, 0x0C])
        bench.advance(bench.config.bootloader.bootTime)
        #expect(bench.device.mode == .bootloader)
        #expect(bench.device.hasValidApplication == false)
        #expect(bench.counters.updatesActivated == 0)
    }

    @Test func objectInterruptedMidwayResumesFromTheOffsetSelectReports() throws {
        let package = try NordicPackage("app-signed-3.zip")
        let image = package.firmware
        var bench = SerialBench(try Self.config())
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x01])
        #expect(bench.sendFirmware(Array(image.prefix(4096)), chunk: 64) == [0x60, 0x04, 0x01])
        // The second object: Create, then 5 of its 64 writes, then the host stops.
        #expect(bench.request(SerialRequestBytes.create(0x02, size: 4096)) == [0x60, 0x01, 0x01])
        for start in stride(from: 4096, to: 4096 + 320, by: 64) {
            #expect(bench.request(SerialRequestBytes.write(image[start ..< start + 64])) == nil)
        }
        // A new host asks where things stand (pc-nrfutil's try_to_recover).
        #expect(words(bench.request(SerialRequestBytes.select(0x01)))
            == [512, UInt32(package.initPacket.count), crc32(package.initPacket)])
        #expect(words(bench.request(SerialRequestBytes.select(0x02))) == [4096, 4416, crc32(image.prefix(4416))])
        // The rest of the page, without a Create; then CRC and Execute; then the remaining objects.
        for start in stride(from: 4416, to: 8192, by: 64) {
            _ = bench.request(SerialRequestBytes.write(image[start ..< start + 64]))
        }
        #expect(words(bench.request(SerialRequestBytes.checksum)) == [8192, crc32(image.prefix(8192))])
        #expect(bench.request(SerialRequestBytes.execute) == [0x60, 0x04, 0x01])
        #expect(bench.sendFirmware(image, from: 8192, chunk: 64) == [0x60, 0x04, 0x01])
        bench.advance(bench.config.bootloader.bootTime)
        #expect(bench.device.runningApplicationVersion == 3)
    }

    @Test func acceptedInitPacketSurvivesAResetButDataProgressDoesNot() throws {
        let package = try NordicPackage("app-signed-3.zip")
        var bench = SerialBench(try Self.config { $0.applicationInstalled = false })
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x01])
        #expect(bench.sendFirmware(Array(package.firmware.prefix(8192)), chunk: 64) == [0x60, 0x04, 0x01])
        // Abort: no answer, a reset (nrf_dfu_req_handler.c on_abort_request, nrf_bootloader.c
        // bootloader_reset); with no valid application the bootloader comes back.
        #expect(bench.request([0x0C]) == nil)
        #expect(bench.log.last == .detach)
        bench.advance(bench.config.bootloader.bootTime)
        #expect(bench.device.mode == .bootloader)
        // The init command was written to flash on its Execute and is accepted again at start
        // (nrf_dfu_req_handler_init); NRF_DFU_SAVE_PROGRESS_IN_FLASH 0 kept no data progress.
        #expect(words(bench.request(SerialRequestBytes.select(0x01)))
            == [512, UInt32(package.initPacket.count), crc32(package.initPacket)])
        #expect(bench.request(SerialRequestBytes.execute) == [0x60, 0x04, 0x01])
        #expect(words(bench.request(SerialRequestBytes.select(0x02))) == [4096, 0, 0])
    }

    @Test func applicationThatReentersTheBootloaderTakesASecondUpdate() throws {
        let package = try NordicPackage("app-signed-3.zip")
        var bench = SerialBench(try Self.config { $0.application = .reentersBootloader(after: .seconds(1)) })
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x01])
        #expect(bench.sendFirmware(package.firmware, chunk: 64) == [0x60, 0x04, 0x01])
        bench.advance(bench.config.bootloader.bootTime)
        #expect(bench.device.runningApplicationVersion == 3)
        bench.advance(.seconds(1))
        #expect(bench.device.mode == .booting)
        bench.advance(bench.config.bootloader.bootTime)
        #expect(bench.device.mode == .bootloader)
        // Firmware Version, image 2 (after the bootloader and the SoftDevice): the application, v3.
        let answer = bench.request([0x0B, 0x02])
        #expect(answer?.prefix(4) == [0x60, 0x0B, 0x01, 0x01])
        #expect(words(answer, from: 4) == [3, 0x26000, 49152])
        // Same version again is accepted (NRF_DFU_APP_ACCEPT_SAME_VERSION 1).
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x01])
    }

    @Test func usbApplicationWithoutAPortNeverAttaches() throws {
        let package = try NordicPackage("app-signed-3.zip")
        var bench = SerialBench(try Self.config(.usb) {
            $0.bootloader.softDeviceFWID = 0x0101
            $0.applicationHasPort = false
        })
        #expect(bench.config.portVanishesOnReset)
        #expect(bench.sendInitPacket(package.initPacket, chunk: 1024) == [0x60, 0x04, 0x01])
        #expect(bench.sendFirmware(package.firmware, chunk: 1024) == [0x60, 0x04, 0x01])
        #expect(!bench.device.portPresent)
        bench.advance(bench.config.bootloader.bootTime)
        #expect(bench.device.mode == .application)
        #expect(!bench.log.contains(.attach))
        #expect(!bench.device.portPresent)
    }

    @Test func powerOnWithoutTheButtonStartsTheApplication() throws {
        let bench = SerialBench(try Self.config { $0.enterBootloaderAtPowerOn = false })
        #expect(bench.device.mode == .application)
        #expect(bench.device.runningApplicationVersion == 1)
        let empty = SerialBench(try Self.config {
            $0.enterBootloaderAtPowerOn = false
            $0.applicationInstalled = false
        })
        #expect(empty.device.mode == .bootloader)
    }
}
