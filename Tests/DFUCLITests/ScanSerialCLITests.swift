import BlueZStandIn
import Foundation
import SerialTransport
import Testing
import Transport
#if canImport(Glibc)
import Glibc
#endif

/// `dfu scan --serial` as a user runs it, on a fake `/dev` and `/sys` (`DFU_TEST_SERIAL_ROOT`, the
/// hidden hook the command reads for tests): ports that are plain files with USB details
/// (`--no-probe`), and real pseudo-terminals: the virtual device served in console and raw framing
/// (`dfu sim --serve serial:`), the nRF5 SDK bootloader (`--protocol nordic`), a port nobody
/// answers and one held by another process.
@Suite(.serialized, .endToEnd) struct ScanSerialCLITests {
    /// A USB serial port as Linux shows it: a by-id link to `dev/<tty>`, and in sysfs the tty
    /// `ttyName`, whose `device` link leads to an interface folder under the USB device.
    static func addBoard(in tree: SerialScanTree, tty: String, ttyName: String? = nil, byID: String?, device: String = "1-2",
                         vendor: String = "2fe3", product: String = "0100", serial: String? = "ABC123",
                         manufacturer: String? = "ZEPHYR", productName: String? = "Board", interface: String = "00") throws {
        if let byID { try tree.link("dev/serial/by-id/\(byID)", to: "../../\(tty)") }
        let usb = "sys/devices/pci0000:00/usb1/\(device)"
        try tree.file("\(usb)/idVendor", vendor)
        try tree.file("\(usb)/idProduct", product)
        if let serial { try tree.file("\(usb)/serial", serial) }
        if let manufacturer { try tree.file("\(usb)/manufacturer", manufacturer) }
        if let productName { try tree.file("\(usb)/product", productName) }
        try tree.file("\(usb)/\(device):1.0/bInterfaceNumber", interface)
        try tree.link("sys/class/tty/\(ttyName ?? tty)/device", to: "../../../devices/pci0000:00/usb1/\(device)/\(device):1.0")
    }

    @Test func noProbeListsThePortsWithTheirUSBDetailsWithoutOpeningThem() async throws {
        let tree = try SerialScanTree()
        defer { tree.remove() }
        try tree.file("dev/ttyACM0")
        try tree.file("dev/ttyUSB0")
        try tree.file("dev/ttyS0")  // not a USB serial port: not listed
        try Self.addBoard(in: tree, tty: "ttyACM0", byID: "usb-ZEPHYR_Board_ABC123-if00")
        try Self.addBoard(in: tree, tty: "ttyUSB0", byID: nil, device: "1-3", vendor: "10c4", product: "ea60", serial: nil,
                          manufacturer: "Silicon Labs", productName: "CP2102N USB to UART Bridge Controller", interface: "01")
        let run = try await tree.run(["scan", "--serial", "--no-probe"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.isEmpty)
        let byID = "\(tree.path)/dev/serial/by-id/usb-ZEPHYR_Board_ABC123-if00"
        let bridge = "\(tree.path)/dev/ttyUSB0"
        let width = "serial:".count + max(byID.count, bridge.count) + 2
        func padded(_ text: String) -> String { text + String(repeating: " ", count: width - text.count) }
        #expect(run.stdoutLines == [
            padded("DEVICE") + "TTY      USB        MANUFACTURER  PRODUCT                                SERIAL  IF",
            padded("serial:" + byID) + "ttyACM0  2fe3:0100  ZEPHYR        Board                                  ABC123  0",
            padded("serial:" + bridge) + "ttyUSB0  10c4:ea60  Silicon Labs  CP2102N USB to UART Bridge Controller  -       1",
            "2 serial ports (not probed)",
        ])

        let json = try await tree.run(["scan", "--serial", "--no-probe", "--baud", "1000000", "--json"])
        #expect(try JSONSchemaTests.validLines(json, command: "scan", exitCode: 0) == ["port", "port", "result"])
        #expect(json.stdoutLines.first == #"{"event":"port","schema":2,"device":"serial:\#(byID),baud=1000000","#
            + #""path":"\#(byID)","tty":"ttyACM0","usb":"2fe3:0100","manufacturer":"ZEPHYR","product":"Board","#
            + #""serial_number":"ABC123","interface":0,"answer":null,"protocol":null,"supported":false,"error":null}"#)
        #expect(json.stdoutLines.last
            == #"{"event":"result","schema":2,"command":"scan","ok":true,"exit_code":0,"adapter":null,"devices":2,"error":null}"#)
    }

    @Test func noPortsSaysWhatToCheck() async throws {
        let tree = try SerialScanTree()
        defer { tree.remove() }
        let run = try await tree.run(["scan", "--serial"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines == ["no serial ports found (ttyACM*, ttyUSB*, /dev/serial/by-id); check that the board "
            + "is plugged in and powered, and that its USB cable carries data"])
        // The same generous timeout: at the default a loaded machine left the in-test bootloader unheard.
        let json = try await tree.run(["scan", "--serial", "--json", "--probe-timeout", "5"])
        #expect(try JSONSchemaTests.validLines(json, command: "scan", exitCode: 0) == ["result"])
    }

    /// Every kind of port at once, asked in parallel: the whole scan takes about the three probe
    /// timeouts of the port nobody answers, not their sum over ports.
    @Test func eachPortIsNamedByWhatAnswersOnIt() async throws {
        let tree = try SerialScanTree()
        defer { tree.remove() }
        let console = try LiveDFUProcess(sim: ["--serve", "serial:\(tree.path)/dev/ttyACM0"])
        let raw = try LiveDFUProcess(sim: ["--serve", "serial:\(tree.path)/dev/ttyACM1,raw"])
        let consolePTY = try #require(console.servingSerial(), "\(console.lines)")
        _ = try #require(raw.servingSerial(), "\(raw.lines)")
        // sysfs files a tty by its node's name: a pty's is its number.
        try Self.addBoard(in: tree, tty: "ttyACM0", ttyName: SerialScanTree.name(of: consolePTY),
                          byID: "usb-ZEPHYR_Board_ABC123-if00")
        // A process of its own, as the SMP devices: a bootloader answering from a task in this test
        // process went unheard while the other end-to-end suites held the cooperative threads.
        let bootloader = try LiveDFUProcess(sim: ["--serve", "serial:\(tree.path)/dev/ttyUSB0", "--protocol", "nordic"])
        let nordicPTY = try #require(bootloader.servingSerial(), "\(bootloader.lines)")
        let silent = try PseudoTerminal.open(linkedAt: "\(tree.path)/dev/ttyUSB1")
        let held = try PseudoTerminal.open(linkedAt: "\(tree.path)/dev/ttyUSB2")
        let holder = try SerialLink.open(held.devicePath, presenting: .smp)
        defer {
            _ = bootloader.stop()
            _ = console.stop()
            _ = raw.stop()
        }

        // A generous probe timeout: a loaded machine may be slow to schedule the devices' processes.
        let run = try await tree.run(["scan", "--serial", "--verbose", "--probe-timeout", "5"])
        #expect(run.exitCode == 0, "\(run.output)")
        let byID = "\(tree.path)/dev/serial/by-id/usb-ZEPHYR_Board_ABC123-if00"
        func row(_ device: String) -> String? {
            run.stdoutLines.first { $0.hasPrefix("serial:\(device) ") || $0.hasPrefix("serial:\(device),") }
        }
        let consoleRow = try #require(row(byID), "\(run.output)")
        #expect(consoleRow.contains("2fe3:0100  ZEPHYR        Board    ABC123  0   SMP (console)"), "\(consoleRow)")
        #expect(consoleRow.contains("pts/"))
        let rawPath = try #require(SerialScanTree.resolved("\(tree.path)/dev/ttyACM1"))
        #expect(row(rawPath)?.hasPrefix("serial:\(rawPath),raw ") == true, "\(run.output)")
        #expect(row(rawPath)?.hasSuffix("  SMP (raw)") == true)
        #expect(row(nordicPTY)?.hasSuffix("  Nordic Secure DFU") == true, "\(run.output)")
        #expect(row(silent.devicePath)?.hasSuffix("  no answer") == true, "\(run.output)")
        #expect(row(held.devicePath)?.hasSuffix("  busy (another process has it open)") == true, "\(run.output)")
        #expect(run.stdoutLines.last == "5 serial ports, probed at 115200 baud: 1 SMP (console), 1 SMP (raw), "
            + "1 Nordic Secure DFU, 1 no answer, 1 busy")
        #expect(run.stderr.contains("dfu: \(held.devicePath): the serial port \(held.devicePath) is in use"), "\(run.stderr)")

        // The same generous timeout: at the default a loaded machine left the in-test bootloader unheard.
        let json = try await tree.run(["scan", "--serial", "--json", "--probe-timeout", "5"])
        #expect(try JSONSchemaTests.validLines(json, command: "scan", exitCode: 0) == ["port", "port", "port", "port", "port", "result"])
        let ports = try json.stdoutLines.dropLast().map(FlashCLITests.object)
        func port(_ path: String) -> [String: Any]? { ports.first { $0["path"] as? String == path } }
        #expect(port(byID)?["answer"] as? String == "smp-console")
        #expect(port(byID)?["device"] as? String == "serial:\(byID)")
        #expect(port(byID)?["supported"] as? Bool == true)
        #expect(port(rawPath)?["answer"] as? String == "smp-raw")
        #expect(port(rawPath)?["device"] as? String == "serial:\(rawPath),raw")
        #expect(port(nordicPTY)?["answer"] as? String == "nordic-secure-dfu")
        #expect(port(nordicPTY)?["protocol"] as? String == "nordic-secure-dfu")
        #expect(port(nordicPTY)?["supported"] as? Bool == true)
        #expect(port(silent.devicePath)?["answer"] as? String == "no-answer")
        #expect(port(silent.devicePath)?["error"] is NSNull)
        #expect(port(held.devicePath)?["answer"] as? String == "busy")
        #expect((port(held.devicePath)?["error"] as? String)?.contains("fuser") == true)

        // The device text works: dfu echo over the port the scan named.
        let echo = try DFURun.run(["echo", "hi", "--device", "serial:\(byID)"], timeout: 30)
        #expect(echo.exitCode == 0, "\(echo.output)")

        await holder.disconnect()
        await held.close()
        await silent.close()
    }

    @Test(arguments: [
        (["--serial", "--timeout", "5"], "--timeout applies to the Bluetooth scan, not to --serial"),
        (["--serial", "--all"], "--all applies to the Bluetooth scan, not to --serial"),
        (["--serial", "--adapter", "hci0"], "--adapter applies to the Bluetooth scan, not to --serial"),
        (["--serial", "--rssi-min", "-70"], "--rssi-min applies to the Bluetooth scan, not to --serial"),
        (["--no-probe"], "--no-probe applies to the serial port scan: add --serial"),
        (["--baud", "9600"], "--baud applies to the serial port scan: add --serial"),
        (["--probe-timeout", "2"], "--probe-timeout applies to the serial port scan: add --serial"),
        (["--serial", "--no-probe", "--probe-timeout", "2"], "--probe-timeout has nothing to time with --no-probe"),
        (["--serial", "--probe-timeout", "0"], "--probe-timeout must be more than 0 and at most 60 seconds"),
        (["--serial", "--baud", "100000"], "invalid --baud: 100000 baud is not a speed a serial port can be set to; "
            + "the nearest supported are 57600 or 115200."),
    ] as [([String], String)])
    func badCombinationsExitTwo(arguments: [String], message: String) throws {
        let run = try DFURun.run(["scan"] + arguments)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("dfu: error: \(message)"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}

/// A fake root for `dfu scan --serial` (`DFU_TEST_SERIAL_ROOT`): `dev/` and `sys/` under a scratch
/// folder whose path has its links resolved, as realpath(3) reports the files in it.
struct SerialScanTree {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-scan-serial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base.appendingPathComponent("dev"), withIntermediateDirectories: true)
        path = base.resolvingSymlinksInPath().path
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` and a newline, as sysfs attributes end, making the folders.
    func file(_ relative: String, _ text: String = "") throws {
        let full = URL(fileURLWithPath: "\(path)/\(relative)")
        try FileManager.default.createDirectory(at: full.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((text.isEmpty ? "" : text + "\n").utf8).write(to: full)
    }

    func link(_ relative: String, to target: String) throws {
        let full = URL(fileURLWithPath: "\(path)/\(relative)")
        try FileManager.default.createDirectory(at: full.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: full.path, withDestinationPath: target)
    }

    /// The tty's name as sysfs files it: the last part of its path (`ttyACM0`; a pty's number).
    static func name(of tty: String) -> String {
        tty.split(separator: "/").last.map(String.init) ?? tty
    }

    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `dfu arguments…` on this tree, awaited without blocking a thread: the pseudo-terminals the
    /// test plays ports with need the cooperative pool while dfu runs.
    func run(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> DFURun {
        try await DFURun.awaiting(arguments, timeout: timeout, environment: ["DFU_TEST_SERIAL_ROOT": path])
    }

}

extension LiveDFUProcess {
    /// The device path of the pty `dfu sim --serve serial:` serves on (SMP or, with `--protocol
    /// nordic`, Nordic Secure DFU), from its ready line; nil when the first line is something else
    /// or none comes.
    func servingSerial(timeout: TimeInterval = 20) -> String? {
        guard let line = nextLine(timeout: timeout),
              line.hasPrefix("dfu sim: serving SMP on serial ") || line.hasPrefix("dfu sim: serving Nordic Secure DFU on serial "),
              let open = line.firstIndex(of: "(") else { return nil }
        let device = line[line.index(after: open)...].prefix { $0 != "," }
        return device.hasPrefix("/dev/pts/") ? String(device) : nil
    }
}
