import ReferenceDevices
import Testing
import Transport

/// Every op code the serial transport takes, and its answer (nrf_dfu_serial.c
/// `nrf_dfu_serial_on_packet_received`, `response_send`; nrf_dfu_req_handler.c).
@Suite struct SerialOpcodeTests {
    static func bench(_ variant: SDKSerialVariant = .uart,
                      _ edit: (inout SDKSerialDeviceConfiguration) -> Void = { _ in }) throws -> SerialBench {
        SerialBench(try SerialUpdateTests.config(variant, edit))
    }

    @Test func protocolVersionIsOne() throws {
        var bench = try Self.bench()
        #expect(bench.request([0x00]) == [0x60, 0x00, 0x01, 0x01])
    }

    @Test func pingEchoesItsID() throws {
        var bench = try Self.bench()
        for id: UInt8 in [0x00, 0x01, 0x7F, 0xC0, 0xDB, 0xFF] {
            #expect(bench.request(SerialRequestBytes.ping(id)) == [0x60, 0x09, 0x01, id])
        }
        #expect(bench.counters.pings == 6)
    }

    @Test(arguments: [(SDKSerialVariant.uart, [UInt8]([0x83, 0x00])), (.usb, [0x03, 0x08])])
    func mtuIsTheSLIPBufferSize(variant: SDKSerialVariant, little: [UInt8]) throws {
        // UART_SLIP_MTU = 2 × (64 + 1) + 1 = 131; SLIP_MTU = 2 × (1024 + 1) + 1 = 2051.
        var bench = try Self.bench(variant)
        #expect(bench.request(SerialRequestBytes.mtu) == [0x60, 0x07, 0x01] + little)
        #expect(bench.counters.mtuRequests == 1)
    }

    @Test func hardwareVersionReportsTheChip() throws {
        var uart = try Self.bench(.uart)
        let answer = uart.request([0x0A])
        #expect(answer?.prefix(3) == [0x60, 0x0A, 0x01])
        #expect(words(answer) == [0x52832, 0x4141_4530, 512 * 1024, 64 * 1024, 4096])
        var usb = try Self.bench(.usb)
        #expect(words(usb.request([0x0A])) == [0x52840, 0x4141_4430, 1024 * 1024, 256 * 1024, 4096])
    }

    @Test func firmwareVersionListsBootloaderSoftDeviceApplication() throws {
        var bench = try Self.bench()
        func image(_ number: UInt8) -> (type: UInt8?, words: [UInt32]) {
            let answer = bench.request([0x0B, number])
            #expect(answer?.prefix(3) == [0x60, 0x0B, 0x01])
            return (answer.flatMap { $0.count > 3 ? $0[3] : nil }, words(answer, from: 4))
        }
        #expect(image(0) == (0x02, [1, 0x78000, 0x6000]))
        // SD_SIZE_GET: where the SoftDevice ends, not its size.
        #expect(image(1) == (0x00, [7_002_000, 0x1000, 0x26000]))
        #expect(image(2) == (0x01, [1, 0x26000, 0x8000]))
        #expect(image(3) == (0xFF, [0, 0, 0]))

        var bare = try Self.bench {
            $0.applicationInstalled = false
            $0.bootloader.softDevicePresent = false
            $0.bootloader.applicationStart = 0x1000
        }
        #expect(bare.request([0x0B, 0x01]).map { Array($0.prefix(4)) } == [0x60, 0x0B, 0x01, 0xFF])
    }

    @Test func setPRNCreateCRCExecuteAndSelectAnswer() throws {
        var bench = try Self.bench()
        #expect(bench.request(SerialRequestBytes.setPRN(0)) == [0x60, 0x02, 0x01])
        #expect(bench.request(SerialRequestBytes.select(0x01)) == [0x60, 0x06, 0x01] + le32(512) + le32(0) + le32(0))
        #expect(bench.request(SerialRequestBytes.create(0x01, size: 4)) == [0x60, 0x01, 0x01])
        #expect(bench.request(SerialRequestBytes.write([1, 2, 3, 4])) == nil)
        #expect(bench.request(SerialRequestBytes.checksum) == [0x60, 0x03, 0x01] + le32(4) + le32(crc32([1, 2, 3, 4])))
        // Four bytes are no init packet: nanopb cannot decode them (05).
        #expect(bench.request(SerialRequestBytes.execute) == [0x60, 0x04, 0x05])
        #expect(bench.request(SerialRequestBytes.select(0x02)) == [0x60, 0x06, 0x01] + le32(4096) + le32(0) + le32(0))
        // No init command: a data object cannot be made (08), and a failure carries no payload.
        #expect(bench.request(SerialRequestBytes.create(0x02, size: 4096)) == [0x60, 0x01, 0x08])
        #expect(bench.request(SerialRequestBytes.select(0x03)) == [0x60, 0x06, 0x05])
        #expect(bench.request(SerialRequestBytes.checksum) == [0x60, 0x03, 0x05])
    }

    @Test func sdk15SerialBootloaderTakesInitCommandsOf256AndKnowsEveryOpCode() throws {
        var bench = try Self.bench { $0.bootloader.sdkVersion = .v15_0 }
        #expect(words(bench.request(SerialRequestBytes.select(0x01))) == [256, 0, 0])
        #expect(bench.request(SerialRequestBytes.ping(9)) == [0x60, 0x09, 0x01, 0x09])
    }

    @Test func unknownOpCodesAreNotSupported() throws {
        var bench = try Self.bench()
        // 0x05 is pc-nrfutil's "ReadError", which no SDK bootloader knows.
        for op: UInt8 in [0x05, 0x0D, 0x60, 0xFF] {
            #expect(bench.request([op, 0x01, 0x02]) == [0x60, op, 0x02])
        }
    }

    @Test func abortResetsWithoutAnAnswer() throws {
        var bench = try Self.bench()
        #expect(bench.request([0x0C]) == nil)
        #expect(bench.log.last == .detach)
        #expect(bench.counters.resets == 1)
        bench.advance(bench.config.bootloader.bootTime)
        // The DFU button only counted at power-on: the valid application starts.
        #expect(bench.device.mode == .application)
    }

    @Test func missingParametersAreReadFromTheBufferStaleBytes() throws {
        var bench = try Self.bench()
        // The Create leaves 01 01 08 00 00 00 in the block; a bare Select then reads type 01 from it.
        #expect(bench.request(SerialRequestBytes.create(0x01, size: 8)) == [0x60, 0x01, 0x01])
        #expect(bench.request([0x06]) == [0x60, 0x06, 0x01] + le32(512) + le32(0) + le32(0))
        // A bare Ping echoes what the last frame left at byte 1.
        #expect(bench.request(SerialRequestBytes.ping(0x42)) == [0x60, 0x09, 0x01, 0x42])
        #expect(bench.request([0x09]) == [0x60, 0x09, 0x01, 0x42])
    }

    @Test func extendedErrorsCarryTheirCode() throws {
        let package = try NordicPackage("app-signed-3.zip")
        var bench = try Self.bench { $0.bootloader.hardwareVersion = 53 }
        // nrf_dfu_ver_validation.c: hw_version 52 is not 53 → extended error 06.
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x0B, 0x06])
    }
}
