import SerialTransport

// In-process tests of the `dfu` executable target (see DeviceSpecTests.swift for the condition).
#if DFU_CLI_UNIT_TESTS
@testable import ArgumentParsing
import DFUCore
import Testing
@testable import dfu

/// `dfu scan --serial`'s options and how a port is shown, without opening one. Ports on real
/// pseudo-terminals: ScanSerialCLITests.
@Suite struct ScanSerialCommandTests {
    private func parse(_ words: [String]) throws -> ScanCommand {
        let definitions = try ArgumentCollector.definitions(of: ScanCommand.self)
        let values = try CommandLineParser(definitions: definitions).parse(words)
        let command = try ScanCommand(from: ArgumentValueDecoder(values: values))
        try command.validate()
        return command
    }

    static let board = SerialPortInfo(devicePath: "/dev/ttyACM0", byIDPath: "/dev/serial/by-id/usb-ZEPHYR_Board_ABC123-if00",
                                      usb: .init(vendorID: 0x2FE3, productID: 0x0100, serialNumber: "ABC123",
                                                 manufacturer: "ZEPHYR", product: "Board", interfaceNumber: 0))

    @Test func serialProbesAtTheConsoleSpeedForOneSecondEach() throws {
        let command = try parse(["--serial"])
        #expect(command.serialPorts.serial && !command.serialPorts.noProbe)
        #expect(command.serialPorts.probeDuration == .seconds(1))
        #expect(try command.serialPorts.settings() == .standard)
        let tuned = try parse(["--serial", "--probe-timeout", "0.25", "--baud", "1000000", "--json", "--verbose"])
        #expect(tuned.serialPorts.probeDuration == .milliseconds(250))
        #expect(try tuned.serialPorts.settings().baud == 1_000_000)
        // The Bluetooth scan keeps its own default.
        #expect(try parse([]).timeout == 10)
    }

    @Test func theDeviceTextCarriesTheSpeedAndTheFramingThatAnswered() throws {
        let raw = try #require(ProtocolRegistry.serialProbes.first { $0.jsonName == "smp-raw" })
        #expect(SerialPortFinding(port: Self.board, answer: .silent, baud: 115_200).device
            == "serial:/dev/serial/by-id/usb-ZEPHYR_Board_ABC123-if00")
        #expect(SerialPortFinding(port: Self.board, answer: .answered(raw), baud: 1_000_000).device
            == "serial:/dev/serial/by-id/usb-ZEPHYR_Board_ABC123-if00,baud=1000000,raw")
        // A path --device cannot carry has no device text; the table shows the path instead.
        let comma = SerialPortFinding(port: SerialPortInfo(devicePath: "/dev/odd,name"), answer: .silent, baud: 115_200)
        #expect(comma.device == nil)
        #expect(SerialScanOutput.cells(comma).first == "/dev/odd,name")
        #expect(comma.tty == "odd,name")
    }

    /// Root opens any port, so the tests cannot be refused one: the words are checked here.
    @Test func aDeniedPortSaysWhichGroupToJoin() {
        let denied = SerialPortAnswer(SerialPortError.permissionDenied(path: "/dev/ttyACM0", group: "uucp"))
        #expect(denied.column == "permission denied (join the group 'uucp': sudo usermod -aG uucp $USER, then log in again)")
        #expect(denied.jsonName == "permission-denied")
        #expect(denied.error?.contains("sudo usermod -aG uucp $USER") == true)
        let unknown = SerialPortAnswer(SerialPortError.permissionDenied(path: "/dev/ttyACM0", group: nil))
        #expect(unknown.column.contains("sudo usermod -aG dialout $USER"))
        let rootOwned = SerialPortAnswer(SerialPortError.permissionDenied(path: "/dev/ttyACM0", group: "root"))
        #expect(rootOwned.column.contains("join the group 'dialout'"))
    }

    @Test func usbStringsCannotCarryControlCharacters() {
        var port = Self.board
        port.usb?.product = "Board\u{1b}[2J\nOK"
        let cells = SerialScanOutput.cells(SerialPortFinding(port: port, answer: .silent, baud: 115_200))
        #expect(cells[4] == "Board\\u{1b}[2J\\u{a}OK")
        #expect(SerialScanOutput.json(SerialPortFinding(port: port, answer: .silent, baud: 115_200)).encoded
            .contains(#""product":"Board\u001b[2J\nOK""#))
    }

    @Test func summaryCountsProbesInRegistryOrderThenTheRest() {
        let console = ProtocolRegistry.serialProbes[0]
        let findings = [
            SerialPortFinding(port: Self.board, answer: .busy("held"), baud: 115_200),
            SerialPortFinding(port: Self.board, answer: .silent, baud: 115_200),
            SerialPortFinding(port: Self.board, answer: .answered(console), baud: 115_200),
            SerialPortFinding(port: Self.board, answer: .silent, baud: 115_200),
        ]
        #expect(SerialScanOutput.summary(findings, probed: true, baud: 115_200)
            == "4 serial ports, probed at 115200 baud: 1 SMP (console), 1 busy, 2 no answer")
        #expect(SerialScanOutput.summary(Array(findings.prefix(1)), probed: false, baud: 115_200) == "1 serial port (not probed)")
    }
}
#endif
