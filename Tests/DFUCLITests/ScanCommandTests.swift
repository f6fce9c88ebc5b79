import BlueZTransport

// In-process tests of the `dfu` executable target (see DeviceSpecTests.swift for the condition).
#if DFU_CLI_UNIT_TESTS
@testable import ArgumentParsing
import DFUCore
import Testing
import Transport
@testable import dfu

/// `dfu scan`'s options, and how a device found is classified and shown (table row, JSON line,
/// summary), without BlueZ.
@Suite struct ScanCommandTests {
    private func parse(_ words: [String]) throws -> ScanCommand {
        let definitions = try ArgumentCollector.definitions(of: ScanCommand.self)
        let values = try CommandLineParser(definitions: definitions).parse(words)
        let command = try ScanCommand(from: ArgumentValueDecoder(values: values))
        try command.validate()
        return command
    }

    static let smp = DFUServiceIDs.smp
    static let nordic = DFUServiceIDs.nordicSecureDFU
    static let battery = ServiceID(short: 0x180F)

    @Test func defaultsLookForSMPAndNordicDFUForTenSeconds() throws {
        let command = try parse([])
        #expect(command.timeout == 10)
        #expect(command.bluetooth.adapter == nil)
        #expect(command.filter == BlueZScanFilter(services: [Self.smp, Self.nordic], minimumRSSI: nil))
    }

    @Test func allDropsTheServiceFilterAndKeepsTheRSSIFloor() throws {
        let command = try parse(["--all", "--rssi-min", "-70", "--timeout", "2.5", "--adapter", "hci1"])
        #expect(command.filter == BlueZScanFilter(services: [], minimumRSSI: -70))
        #expect(command.timeout == 2.5)
        #expect(command.bluetooth.adapter == "hci1")
        #expect(try parse(["--rssi-min=-127"]).rssiMin == -127)
        #expect(try parse(["--rssi-min", "20"]).rssiMin == 20)
    }

    @Test(arguments: [
        ([Self.smp], ScanProtocol(name: .smp)),
        ([Self.battery, Self.nordic], ScanProtocol(name: .nordic)),
        // A device offering both is one dfu can update: SMP wins.
        ([Self.nordic, Self.smp], ScanProtocol(name: .smp)),
        ([Self.battery], .other),
        ([], .other),
    ] as [([ServiceID], ScanProtocol)])
    func protocolFollowsTheAdvertisedServices(services: [ServiceID], expected: ScanProtocol) {
        #expect(ScanProtocol(services: services) == expected)
    }

    @Test func rowsShowTheFullAddressNameRSSIAndProtocol() {
        let smp = BlueZDiscoveredDevice(address: "C2:11:40:55:7A:01", name: "sensor-12", rssi: -54, services: [Self.smp])
        let nordic = BlueZDiscoveredDevice(address: "E8:1F:22:90:0B:7C", name: nil, rssi: -101, services: [Self.nordic])
        let other = BlueZDiscoveredDevice(address: "00:11:22:33:44:55", name: "a-rather-long-device-name", rssi: nil)
        let width = ScanOutput.nameWidth(for: [smp, nordic, other])
        #expect(width == 25)
        #expect(ScanOutput.header(nameWidth: 9) == "ADDRESS            NAME       RSSI  PROTOCOL")
        #expect(ScanOutput.row(smp, nameWidth: 9) == "C2:11:40:55:7A:01  sensor-12   -54  SMP")
        #expect(ScanOutput.row(nordic, nameWidth: 9)
            == "E8:1F:22:90:0B:7C  (no name)  -101  Nordic DFU")
        // A name longer than the column pushes the row instead of being cut.
        #expect(ScanOutput.row(other, nameWidth: 9) == "00:11:22:33:44:55  a-rather-long-device-name     ?  -")
    }

    /// 127 is HCI's "RSSI not available" (virtual controllers send it): not a signal of +127 dBm.
    @Test func rssiNotAvailableIsShownAsUnknown() {
        let device = BlueZDiscoveredDevice(address: "00:AA:01:00:00:00", name: "sensor-12", rssi: 127, services: [Self.smp])
        #expect(ScanOutput.row(device, nameWidth: 9) == "00:AA:01:00:00:00  sensor-12     ?  SMP")
        #expect(ScanOutput.json(device).encoded.contains(#""rssi":null"#))
        let weakest = BlueZDiscoveredDevice(address: "00:AA:01:00:00:01", rssi: -127)
        #expect(ScanOutput.json(weakest).encoded.contains(#""rssi":-127"#))
    }

    /// A name comes from the air: it must not be able to move the cursor or forge a line.
    @Test func namesCannotCarryControlCharacters() {
        let device = BlueZDiscoveredDevice(address: "C2:11:40:55:7A:01", name: "evil\u{1b}[2J\nOK", rssi: -40,
                                           services: [Self.smp])
        let row = ScanOutput.row(device, nameWidth: 4)
        #expect(!row.contains("\u{1b}") && !row.contains("\n"))
        #expect(row.contains("evil\\u{1b}[2J\\u{a}OK"))
        #expect(ScanOutput.json(device).encoded.contains(#""name":"evil\u001b[2J\nOK""#))
    }

    @Test func jsonLineNamesTheProtocolAndWhetherDfuSupportsIt() {
        let nordic = BlueZDiscoveredDevice(address: "E8:1F:22:90:0B:7C", addressType: "random", name: "DfuTarg",
                                           rssi: -71, services: [Self.nordic], connected: false)
        #expect(ScanOutput.json(nordic).encoded == #"{"event":"device","schema":2,"address":"E8:1F:22:90:0B:7C","#
            + #""address_type":"random","name":"DfuTarg","rssi":-71,"protocol":"nordic-secure-dfu","supported":true,"#
            + #""connected":false,"services":["0000fe59-0000-1000-8000-00805f9b34fb"]}"#)
        let plain = BlueZDiscoveredDevice(address: "00:11:22:33:44:55")
        #expect(ScanOutput.json(plain).encoded.contains(#""name":null,"rssi":null,"protocol":null,"supported":false"#))
        #expect(ScanOutput.jsonResult(adapter: "hci0", count: 2, error: nil).encoded
            == #"{"event":"result","schema":2,"command":"scan","ok":true,"exit_code":0,"adapter":"hci0","devices":2,"error":null}"#)
    }

    @Test func summaryCountsEachProtocolOrSaysWhatToCheck() {
        let summary = ScanOutput.Summary(adapter: "hci0", seconds: 10, all: false, minimumRSSI: nil)
        #expect(summary.line([]) == "no devices found on hci0 in 10 s offering SMP or Nordic DFU; check that the "
            + "device is powered, advertising and in range (--all lists every device)")
        let floor = ScanOutput.Summary(adapter: "hci1", seconds: 2.5, all: true, minimumRSSI: -70)
        #expect(floor.line([]) == "no devices found on hci1 in 2.5 s at -70 dBm or stronger; check that the "
            + "device is powered, advertising and in range")
        let devices = [
            BlueZDiscoveredDevice(address: "C2:11:40:55:7A:01", services: [Self.smp]),
            BlueZDiscoveredDevice(address: "C2:11:40:55:7A:02", services: [Self.smp]),
            BlueZDiscoveredDevice(address: "E8:1F:22:90:0B:7C", services: [Self.nordic]),
            BlueZDiscoveredDevice(address: "00:11:22:33:44:55"),
        ]
        #expect(summary.line(devices) == "4 devices found on hci0 in 10 s: 2 SMP, 1 Nordic DFU, 1 other")
        #expect(summary.line(Array(devices.prefix(1))) == "1 device found on hci0 in 10 s: 1 SMP")
    }
}
#endif
