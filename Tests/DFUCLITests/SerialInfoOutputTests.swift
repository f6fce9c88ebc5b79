// In-process tests of the `dfu` executable target (see DeviceSpecTests.swift for the condition).
#if DFU_CLI_UNIT_TESTS
@testable import dfu
import DFUCore
import Testing

/// How `dfu info` words a device read over a serial port: the line instead of an ATT MTU, and what
/// an nRF5 SDK bootloader tells there, including what a real one may leave out or word oddly.
@Suite struct SerialInfoOutputTests {
    static func info(_ protocolName: UpdateProtocolName, facts: DeviceFacts = DeviceFacts(),
                     nordic: NordicDeviceInfo? = nil) -> DeviceInfo {
        DeviceInfo(connection: ConnectionSummary(device: "serial:/dev/ttyACM0", attMTU: 65536, maxWrite: 65533, phy: nil,
                                                 connectionInterval: nil, window: 1, ceiling: nil),
                   updateProtocol: protocolName, facts: facts, slots: [], details: nordic)
    }

    /// Without MCUmgr parameters the packets are Zephyr's default buffer, as the upload assumes.
    @Test func aRawDeviceWithoutParametersShowsTheAssumedBufferAndTheFlowControl() {
        var endpoint = SerialEndpoint(path: "/dev/ttyACM0")
        endpoint.raw = true
        endpoint.hardwareFlowControl = true
        let table = InfoOutput.table(Self.info(.smp), serial: endpoint)
        #expect(table.contains("link               /dev/ttyACM0 at 115200 baud 8N1 with RTS/CTS, raw SMP packets, packets up to "
            + "384 bytes (buf_size not reported: Zephyr's 384 assumed)\n"), "\(table)")
        let json = InfoOutput.json(device: "serial:/dev/ttyACM0", .success(Self.info(.smp)), serial: endpoint, warnings: []).encoded
        #expect(json.contains(#""mtu":null,"max_write":null,"#), "\(json)")
        #expect(json.contains(#""serial":{"port":"/dev/ttyACM0","baud":115200,"flow_control":"rts-cts","framing":"raw","#
            + #""line_length":null,"packet_size":384,"device_mtu":null}"#), "\(json)")
    }

    @Test func overBluetoothTheLinkRowAndJSONAreAsBefore() {
        let table = InfoOutput.table(Self.info(.smp))
        #expect(table.contains("link               MTU 65536, writes up to 65533 bytes\n"), "\(table)")
        let json = InfoOutput.json(device: "x", .success(Self.info(.smp)), warnings: []).encoded
        #expect(json.contains(#""mtu":65536,"max_write":65533,"#) && json.contains(#""serial":null"#), "\(json)")
    }

    /// A bootloader that refused every version question shows its objects and MTU only.
    @Test func aNordicBootloaderThatRefusedTheVersionsShowsWhatItHas() {
        let nordic = NordicDeviceInfo(role: .bootloader, serial: NordicSerialDetails(mtu: 2051, writeSize: 1024))
        let table = InfoOutput.table(Self.info(.nordic, nordic: nordic), serial: SerialEndpoint(path: "/dev/ttyACM0"))
        #expect(table.contains("link               /dev/ttyACM0 at 115200 baud 8N1, SLIP frames, bootloader MTU 2051 bytes "
            + "(1024 bytes per Write Object)\n"), "\(table)")
        #expect(table.contains("protocol           Nordic Secure DFU: bootloader (DFU mode)\n"), "\(table)")
        #expect(!table.contains("chip") && !table.contains("SoftDevice"), "\(table)")
    }

    @Test func chipAndImageWordsFromTheDeviceAreReadCarefully() {
        #expect(NordicSerialInfoOutput.partName(0x52833) == "nRF52833")
        #expect(NordicSerialInfoOutput.partName(0xFFFF_FFFF) == "0xFFFFFFFF")
        #expect(NordicSerialInfoOutput.variantName(0x4141_4230) == "AAB0")
        #expect(NordicSerialInfoOutput.variantName(0x1B5B_3030) == "0x1B5B3030")
        let softDevice = NordicFirmwareVersion(type: .softdevice, version: 7_002_000, address: 0x1000, length: 155_648)
        #expect(NordicSerialInfoOutput.firmware(softDevice) == "7.2.0 at 0x00001000, 155648 bytes")
        let oddSoftDevice = NordicFirmwareVersion(type: .softdevice, version: 140, address: 0x1000, length: 0)
        #expect(NordicSerialInfoOutput.firmware(oddSoftDevice) == "140 at 0x00001000")
        let application = NordicFirmwareVersion(type: .application, version: 3, address: 0x27000, length: 0)
        #expect(NordicSerialInfoOutput.firmware(application) == "version 3 at 0x00027000")
    }
}
#endif
