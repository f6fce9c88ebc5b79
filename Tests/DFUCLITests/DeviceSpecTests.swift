// These tests call the renderers and parsers of the `dfu` executable target in-process, which needs
// `"dfu"` among DFUCLITests' dependencies in Package.swift and the DFU_CLI_UNIT_TESTS condition
// (`swiftSettings: [.define("DFU_CLI_UNIT_TESTS")]`). Until both are there, this file compiles to
// nothing, so the binary-driven tests beside it keep building.
#if DFU_CLI_UNIT_TESTS
@testable import ArgumentParsing
import DFUCore
import ExitCodes
import Testing
@testable import dfu

/// `--device`: what it accepts, what it refuses and how the refusal reads (exit 2 through
/// `UsageError`), and the option groups that carry it.
@Suite struct DeviceSpecTests {
    @Test(arguments: [
        ("sim", "sim", "sim"),
        ("SIM", "sim", "sim"),
        ("sim:version=1.0.0,battery=15", "sim", "sim:version=1.0.0,battery=15"),
        // Options are DeviceSim's to read: kept byte for byte, colons and all.
        ("sim:id=AA:BB:CC:DD:EE:FF,fault=disconnect@40%", "sim", "sim:id=AA:BB:CC:DD:EE:FF,fault=disconnect@40%"),
        ("udp:127.0.0.1:1337", "udp", "udp:127.0.0.1:1337"),
        ("udp:0.0.0.0:1", "udp", "udp:0.0.0.0:1"),
        ("udp:[::1]:65535", "udp", "udp:[::1]:65535"),
        ("UDP:[FE80:0:0:0:0:0:0:1]:1337", "udp", "udp:[fe80::1]:1337"),
        // Names, as `dfu sim --serve udp:` takes them: looked up at each connect, lowercased here.
        ("udp:localhost:1337", "udp", "udp:localhost:1337"),
        ("udp:Sensor-12.Local:5683", "udp", "udp:sensor-12.local:5683"),
        ("aa:bb:cc:dd:ee:ff", "address", "AA:BB:CC:DD:EE:FF"),
        ("C0:ff:EE:00:12:9a", "address", "C0:FF:EE:00:12:9A"),
        ("name:Thingy", "name", "name:Thingy"),
        ("name:My Sensor: kitchen", "name", "name:My Sensor: kitchen"),
        ("serial:/dev/ttyACM0", "serial", "serial:/dev/ttyACM0"),
        ("SERIAL:/dev/ttyUSB0,baud=115200", "serial", "serial:/dev/ttyUSB0"),
        ("serial:/dev/ttyUSB0,raw,baud=1000000", "serial", "serial:/dev/ttyUSB0,baud=1000000,raw"),
        ("serial:/dev/serial/by-id/usb-ZEPHYR_Board_0123-if00,recovery,rtscts", "serial",
         "serial:/dev/serial/by-id/usb-ZEPHYR_Board_0123-if00,recovery,rtscts"),
    ])
    func acceptsEveryDocumentedForm(text: String, kind: String, canonical: String) throws {
        let spec = try DeviceSpec(parsing: text)
        let parsedKind = switch spec {
        case .simulator: "sim"
        case .udp: "udp"
        case .address: "address"
        case .name: "name"
        case .serial: "serial"
        }
        #expect(parsedKind == kind)
        #expect(spec.description == canonical)
        #expect(try DeviceSpec(parsing: spec.description) == spec, "description parses back")
    }

    @Test func partsAreKeptAsTheTransportsNeedThem() throws {
        #expect(try DeviceSpec(parsing: "sim") == .simulator(options: ""))
        #expect(try DeviceSpec(parsing: "sim:battery=15") == .simulator(options: "battery=15"))
        #expect(try DeviceSpec(parsing: "udp:10.0.0.2:1337") == .udp(UDPEndpoint(host: .ipv4("10.0.0.2"), port: 1337)))
        #expect(try DeviceSpec(parsing: "udp:[0:0::1]:9") == .udp(UDPEndpoint(host: .ipv6("::1"), port: 9)))
        #expect(try DeviceSpec(parsing: "udp:LOCALHOST:1337") == .udp(UDPEndpoint(host: .name("localhost"), port: 1337)))
        #expect(try DeviceSpec(parsing: "name:Thingy") == .name("Thingy"))
        guard case .address(let address) = try DeviceSpec(parsing: "de:ad:be:ef:00:01") else {
            Issue.record("not an address")
            return
        }
        #expect(address.description == "DE:AD:BE:EF:00:01")
        #expect(address.shortened == "…:00:01")
    }

    @Test(arguments: [
        ("", "--device needs a value: sim, sim:KEY=VALUE,…, udp:HOST:PORT, serial:PATH[,baud=N,raw,recovery,rtscts], a Bluetooth address (AA:BB:CC:DD:EE:FF) or name:NAME"),
        ("sim:", "invalid --device 'sim:': give options after 'sim:' (sim:version=1.0.0,battery=15) or write just 'sim'"),
        ("simulator", "invalid --device 'simulator': expected sim, sim:KEY=VALUE,…"),
        ("ble:AA:BB:CC:DD:EE:FF", "invalid --device 'ble:AA:BB:CC:DD:EE:FF': unknown kind 'ble'; expected sim"),
        ("udp:", "invalid --device 'udp:': give HOST:PORT after 'udp:' (udp:127.0.0.1:1337)"),
        ("udp:127.0.0.1", "invalid --device 'udp:127.0.0.1': '127.0.0.1' has no port (udp:HOST:PORT)"),
        ("udp:127.0.0.1:", "invalid --device 'udp:127.0.0.1:': the port is missing (udp:HOST:PORT)"),
        ("udp::1337", "invalid --device 'udp::1337': the host is missing (udp:127.0.0.1:PORT)"),
        ("udp:127.0.0.1:0", "invalid --device 'udp:127.0.0.1:0': port '0' is not a number from 1 to 65535"),
        ("udp:127.0.0.1:65536", "invalid --device 'udp:127.0.0.1:65536': port '65536' is not a number from 1 to 65535"),
        ("udp:127.0.0.1:-1", "port '-1' is not a number from 1 to 65535"),
        ("udp:127.0.0.1:80a", "port '80a' is not a number from 1 to 65535"),
        ("udp:127.0.0.1:99999999999999999999999", "is not a number from 1 to 65535"),
        ("udp:256.0.0.1:1337", "'256.0.0.1' is not an IPv4 address"),
        ("udp:127.0.1:1337", "'127.0.1' is not an IPv4 address"),
        ("udp:127.000.0.1:1337", "'127.000.0.1' is not an IPv4 address"),
        ("udp:bad_name:1337", "'bad_name' is neither an IPv4 address nor a host name"),
        ("udp:-dash.example:1337", "'-dash.example' is neither an IPv4 address nor a host name"),
        ("udp:::1:1337", "put an IPv6 address in brackets (udp:[::1]:1337)"),
        ("serial:", "invalid --device 'serial:': give a port after 'serial:' (serial:/dev/ttyACM0)"),
        ("serial:ttyACM0", "the port 'ttyACM0' is not an absolute path; give /dev/ttyACM0 or /dev/serial/by-id/…"),
        ("serial:/dev/ttyACM0,baud=fast", "baud=fast is not a rate; give a number like baud=115200"),
        ("serial:/dev/ttyACM0,baud=0", "baud=0 is not a rate"),
        ("serial:/dev/ttyACM0,parity=even", "unknown option 'parity=even'; options are baud=N, raw, recovery, rtscts"),
        ("serial:/dev/ttyACM0,,raw", "an empty option after the port"),
        ("udp:[::1:1337", "'[' opens an IPv6 address but no ']' closes it"),
        ("udp:[::1]1337", "expected ':PORT' after ']' (udp:[::1]:PORT)"),
        ("udp:[::g]:1337", "'::g' is not an IPv6 address"),
        ("udp:[127.0.0.1]:1337", "'127.0.0.1' is not an IPv6 address"),
        ("AA:BB:CC:DD:EE", "invalid --device 'AA:BB:CC:DD:EE': an address has 6 hex pairs separated by ':', this has 5 parts"),
        ("AA:BB:CC:DD:EE:FF:00", "this has 7 parts"),
        ("AA:BB:CC:DD:EE:GG", "invalid --device 'AA:BB:CC:DD:EE:GG': 'GG' is not two hex digits (like AA:BB:CC:DD:EE:FF)"),
        ("AA:BB:CC:DD:EE:F", "'F' is not two hex digits"),
        ("AA:BB:CC:DD::FF", "'' is not two hex digits"),
        ("ＡＡ:BB:CC:DD:EE:FF", "'ＡＡ' is not two hex digits"),
        ("aa-bb-cc-dd-ee-ff", "write the address with colons, AA:BB:CC:DD:EE:FF"),
        ("AABBCCDDEEFF", "write the address with colons, AA:BB:CC:DD:EE:FF"),
        ("name:", "invalid --device 'name:': the name after 'name:' is empty"),
        ("name:bad\u{1B}[2J", "the name contains control characters"),
        ("name:" + String(repeating: "x", count: 249), "the name is 249 bytes; BLE names have at most 248"),
    ])
    func refusesWithAMessageNamingTheBadPart(text: String, message: String) {
        #expect {
            _ = try DeviceSpec(parsing: text)
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            return usage.message.contains(message)
        }
    }

    @Test func addressesAreShortenedForDisplayUnlessFullIsAsked() throws {
        let address = try DeviceSpec(parsing: "aa:bb:cc:dd:ee:ff")
        #expect(address.displayName(fullAddresses: false) == "…:EE:FF")
        #expect(address.displayName(fullAddresses: true) == "AA:BB:CC:DD:EE:FF")
        for text in ["sim", "udp:127.0.0.1:1337", "name:Thingy"] {
            #expect(try DeviceSpec(parsing: text).displayName(fullAddresses: false) == text)
        }
    }

    /// A command holding both groups, as `flash` and `info` will.
    private struct DeviceCommand: DFUCommand {
        static let name = "probe"
        static let abstract = "Test command."
        static let discussion = ""
        var target = DeviceOptions()
        var common = CommonOptions()
        func validate() throws(UsageError) { try target.validate() }
        func run(_ console: Console) async throws(DFUError) -> ExitCodes.ExitStatus { .success }
    }

    private func parse(_ words: [String]) throws -> DeviceCommand {
        let definitions = try ArgumentCollector.definitions(of: DeviceCommand.self)
        let values = try CommandLineParser(definitions: definitions).parse(words)
        let command = try DeviceCommand(from: ArgumentValueDecoder(values: values))
        try command.validate()
        return command
    }

    @Test func deviceGroupsDeclareDistinctNamesAlongsideCommonOptions() throws {
        let names = try ArgumentCollector.definitions(of: DeviceCommand.self).compactMap(\.longName)
        #expect(names == ["device", "adapter", "full-addresses", "json", "verbose"])
    }

    @Test func deviceOptionsParseAndValidate() throws {
        let command = try parse(["--device", "aa:bb:cc:dd:ee:ff", "--adapter", "hci1", "--json"])
        #expect(try command.target.spec == .address(BluetoothAddress(parsing: "AA:BB:CC:DD:EE:FF")))
        #expect(command.target.bluetooth.adapter == "hci1")
        #expect(command.target.displayName == "…:EE:FF")
        #expect(command.common.json)

        let defaults = try parse(["--device", "sim", "--full-addresses"])
        #expect(defaults.target.bluetooth.adapter == nil)
        #expect(try parse(["--device", "name:sensor-12", "--adapter", "hci2"]).target.bluetooth.adapter == "hci2")
        #expect(try parse(["--device", "C0:FF:EE:00:00:01", "--full-addresses"]).target.displayName == "C0:FF:EE:00:00:01")
    }

    @Test(arguments: [
        (["--adapter", "hci0"], "missing option --device <DEVICE>"),
        (["--device", "udp:1.2.3.4:0"], "invalid --device 'udp:1.2.3.4:0': port '0'"),
        (["--device", "sim", "--adapter", "bluetooth0"], "invalid --adapter 'bluetooth0': expected a BlueZ adapter name such as hci0"),
        (["--device", "sim", "--adapter", "hci"], "invalid --adapter 'hci'"),
        // An adapter is for Bluetooth devices only: given with another device it is a mistake.
        (["--device", "sim", "--adapter", "hci0"], "--adapter selects a Bluetooth adapter; it does not apply to --device sim"),
        (["--device", "udp:10.0.0.2:1337", "--adapter", "hci1"], "it does not apply to --device udp:10.0.0.2:1337"),
        // Waits are each command's, named after what they wait for (flash --connect-timeout).
        (["--device", "sim", "--timeout", "5"], "unknown option '--timeout'"),
    ])
    func badDeviceOptionsAreUsageErrors(words: [String], message: String) {
        #expect {
            _ = try parse(words)
        } throws: { error in
            (error as? UsageError)?.message.contains(message) == true
        }
    }
}
#endif
