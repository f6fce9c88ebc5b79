import DFUCore
import DeviceSim
import Testing
import Transport

/// The virtual nRF52's serial DFU transport (`NordicSerialDevice`), driven with bytes this file
/// writes from the nRF5 SDK's `nrf_dfu_serial.c` and `slip.c` (docs/nordic-serial.md), not with
/// DFUCore's serial client.
@Suite struct NordicSerialDeviceTests {
    struct Line {
        var device: NordicSerialDevice
        var now = MonotonicInstant(sinceOrigin: .zero)
        var outputs: [NordicSerialDevice.Output] = []

        init(chip: String = "nrf52832", usb: Bool = false, options: String = "") throws {
            var text = "sim:protocol=nordic,inactivity=off,chip=\(chip)"
            if !options.isEmpty { text += "," + options }
            let configuration = try SimOptions.parse(text).nordicDeviceConfiguration()
            device = NordicSerialDevice(model: NordicVirtualDevice(configuration: configuration, inBootloaderAt: now), usb: usb)
        }

        /// Sends `bytes` as they are (already framed); returns the answers, unframed.
        mutating func raw(_ bytes: [UInt8]) -> [[UInt8]] {
            outputs = device.receive(bytes, now: now)
            return outputs.compactMap { if case .send(let frame) = $0 { Self.unslip(frame) } else { nil } }
        }

        /// Sends one request, SLIP-framed by hand (END and ESC escaped, one END after it).
        mutating func request(_ payload: [UInt8]) -> [[UInt8]] {
            var frame: [UInt8] = []
            for byte in payload {
                switch byte {
                case 0xC0: frame += [0xDB, 0xDC]
                case 0xDB: frame += [0xDB, 0xDD]
                default: frame.append(byte)
                }
            }
            return raw(frame + [0xC0])
        }

        mutating func wait(_ duration: Duration) -> [NordicSerialDevice.Output] {
            now = now.advanced(by: duration)
            outputs = device.tick(now: now)
            return outputs
        }

        static func unslip(_ frame: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            var escaped = false
            for byte in frame {
                if escaped {
                    out.append(byte == 0xDC ? 0xC0 : 0xDB)
                    escaped = false
                } else if byte == 0xDB {
                    escaped = true
                } else if byte != 0xC0 {
                    out.append(byte)
                }
            }
            return out
        }
    }

    static func le32(_ value: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    @Test func pingEchoesItsIDAndTheMTUIsTheTransports() throws {
        var uart = try Line()
        #expect(uart.request([0x09, 0x2A]) == [[0x60, 0x09, 0x01, 0x2A]])
        #expect(uart.request([0x07]) == [[0x60, 0x07, 0x01, 0x83, 0x00]])   // 131
        #expect(uart.request([0x00]) == [[0x60, 0x00, 0x01, 0x01]])
        var usb = try Line(usb: true)
        #expect(usb.request([0x07]) == [[0x60, 0x07, 0x01, 0x03, 0x08]])    // 2051
    }

    @Test func hardwareAndFirmwareVersionsComeFromTheChipAndTheSettings() throws {
        var line = try Line(chip: "nrf52840", options: "version=3,bl_version=2")
        #expect(line.request([0x0A]) == [[0x60, 0x0A, 0x01] + Self.le32(0x52840) + Array("0DAA".utf8) + Self.le32(0x100000)
                                           + Self.le32(256 * 1024) + Self.le32(4096)])
        #expect(line.request([0x0B, 0x00]) == [[0x60, 0x0B, 0x01, 0x02] + Self.le32(2) + Self.le32(0xF8000) + Self.le32(0x6000)])
        #expect(line.request([0x0B, 0x01]) == [[0x60, 0x0B, 0x01, 0x00] + Self.le32(7_002_000) + Self.le32(0x1000) + Self.le32(0x26000)])
        #expect(line.request([0x0B, 0x02]) == [[0x60, 0x0B, 0x01, 0x01] + Self.le32(3) + Self.le32(0x27000) + Self.le32(0)])
        #expect(line.request([0x0B, 0x03]) == [[0x60, 0x0B, 0x01, 0xFF] + [UInt8](repeating: 0, count: 12)])
    }

    /// A line has no CCCD: the first Control Point request is answered, not refused.
    @Test func controlPointRequestsNeedNoSubscription() throws {
        var line = try Line()
        #expect(line.request([0x06, 0x01]) == [[0x60, 0x06, 0x01] + Self.le32(512) + Self.le32(0) + Self.le32(0)])
    }

    /// Write Object carries the selected object's bytes; with a PRN every Nth one is answered by a
    /// Calculate Checksum response with the offset and CRC after it.
    @Test func writeObjectsAreCountedForReceiptsAnsweredAsChecksums() throws {
        var line = try Line()
        #expect(line.request([0x02, 0x02, 0x00]) == [[0x60, 0x02, 0x01]])
        #expect(line.request([0x01, 0x01] + Self.le32(12)) == [[0x60, 0x01, 0x01]])
        #expect(line.request([0x08, 0xC0, 0xDB, 0x01, 0x02]).isEmpty)
        let data: [UInt8] = [0xC0, 0xDB, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
        var crc = CRC32()
        crc.update(data)
        #expect(line.request([0x08, 0x03, 0x04, 0x05, 0x06]) == [[0x60, 0x03, 0x01] + Self.le32(8) + Self.le32(crc.value)])
        #expect(line.request([0x03]) == [[0x60, 0x03, 0x01] + Self.le32(8) + Self.le32(crc.value)])
    }

    @Test func unknownOpcodesAndWrongLengthsAreRefused() throws {
        var line = try Line()
        #expect(line.request([0x42]) == [[0x60, 0x42, 0x02]])
        #expect(line.request([0x09]) == [[0x60, 0x09, 0x03]])
        #expect(line.request([0x08]) == [[0x60, 0x08, 0x03]])
    }

    /// The UART transport's buffer holds an opcode and 64 bytes; a longer frame is dropped, and the
    /// next one is read.
    @Test func aFrameLongerThanTheBufferIsDropped() throws {
        var line = try Line()
        #expect(line.request([0x08] + [UInt8](repeating: 0x55, count: 65)).isEmpty)
        #expect(line.outputs.contains { if case .event(.inputDropped) = $0 { true } else { false } })
        #expect(line.request([0x09, 0x01]) == [[0x60, 0x09, 0x01, 0x01]])
    }

    @Test func aRequestSplitAnywhereIsOneRequest() throws {
        var line = try Line()
        #expect(line.raw([0x09]).isEmpty)
        #expect(line.raw([0x07]) == [])
        #expect(line.raw([0xC0, 0x09, 0x08, 0xC0]) == [[0x60, 0x09, 0x01, 0x07], [0x60, 0x09, 0x01, 0x08]])
    }

    /// Abort resets the device after its answer; while it boots and once its application runs,
    /// nothing reads the line.
    @Test func afterAResetNothingReadsTheLine() throws {
        var line = try Line()
        let answers = line.raw([0x0C, 0xC0, 0x09, 0x01, 0xC0])
        #expect(answers == [[0x60, 0x0C, 0x01]])
        #expect(line.outputs.contains(.resetting(.aborted)))
        #expect(line.request([0x09, 0x02]).isEmpty)
        #expect(line.wait(.seconds(1)).contains(.online))
        #expect(line.device.running.hasPrefix("application"))
        #expect(line.request([0x09, 0x03]).isEmpty)
        #expect(line.outputs.contains { if case .event(.ignored) = $0 { true } else { false } })
    }

    /// A power cut (the fault campaign's): what was half read is gone, the line is ignored while the
    /// device boots, and it starts its application, or its bootloader with the DFU button held.
    @Test(arguments: [false, true]) func aPowerCycleStartsTheApplicationOrWithTheButtonTheBootloader(button: Bool) throws {
        var line = try Line()
        #expect(line.raw([0x09]).isEmpty, "half a ping")
        let outputs = line.device.powerCycle(enterBootloader: button, now: line.now)
        #expect(outputs.contains(.poweredOff))
        #expect(outputs.contains(.event(.powerCycled(enterBootloader: button))))
        #expect(line.raw([0x01, 0xC0]).isEmpty, "nothing reads the line while it boots")
        #expect(line.wait(.seconds(1)).contains(.online))
        if button {
            #expect(line.device.running == "the bootloader (DFU mode)")
            #expect(line.request([0x09, 0x05]) == [[0x60, 0x09, 0x01, 0x05]], "the half ping was forgotten")
        } else {
            #expect(line.device.running.hasPrefix("application"))
            #expect(line.request([0x09, 0x05]).isEmpty)
        }
    }

    /// A board whose application runs is put back in DFU mode by a power cycle with its button
    /// held: the bootloader answers again, and its settings still name the application it had.
    @Test func aPowerCycleWithTheButtonHeldBringsTheBootloaderBack() throws {
        var line = try Line(options: "version=3")
        _ = line.raw([0x0C, 0xC0])
        _ = line.wait(.seconds(1))
        #expect(line.device.running.hasPrefix("application"))
        #expect(line.request([0x09, 0x04]).isEmpty)
        line.outputs = line.device.powerCycle(enterBootloader: true, now: line.now)
        #expect(line.device.running == "nothing yet (booting)")
        #expect(line.wait(.seconds(1)).contains(.online))
        #expect(line.device.running == "the bootloader (DFU mode)")
        #expect(line.request([0x09, 0x05]) == [[0x60, 0x09, 0x01, 0x05]])
        #expect(line.device.model.applicationVersion == 3)
        line.outputs = line.device.powerCycle(enterBootloader: false, now: line.now)
        _ = line.wait(.seconds(1))
        #expect(line.device.running.hasPrefix("application"))
    }
}
