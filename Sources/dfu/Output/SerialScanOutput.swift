import DFUCore

/// How `dfu scan --serial` shows the ports: a table for people, sized to its contents, one `port`
/// object per port for scripts (fields in docs/json-events.md). The USB strings come from the
/// device and the paths from the file system, so they pass through `TerminalText` on the terminal.
///
///     DEVICE                                                 TTY      USB        MANUFACTURER  PRODUCT  SERIAL  IF  ANSWER
///     serial:/dev/serial/by-id/usb-ZEPHYR_Board_ABC123-if00  ttyACM0  2fe3:0100  ZEPHYR        Board    ABC123  0   SMP (console)
///     serial:/dev/ttyUSB0                                    ttyUSB0  10c4:ea60  Silicon Labs  CP2102N  -       0   no answer
enum SerialScanOutput {
    static let headings = ["DEVICE", "TTY", "USB", "MANUFACTURER", "PRODUCT", "SERIAL", "IF", "ANSWER"]

    /// The table: a heading line and one row per port, each column as wide as its widest cell.
    /// Without probing there is no ANSWER column.
    static func table(_ findings: [SerialPortFinding], probed: Bool) -> [String] {
        let count = probed ? headings.count : headings.count - 1
        let rows = [Array(headings.prefix(count))] + findings.map { Array(cells($0).prefix(count)) }
        var widths = [Int](repeating: 0, count: count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            return line
        }
    }

    /// One row's cells; "-" for what is not known.
    static func cells(_ finding: SerialPortFinding) -> [String] {
        let usb = finding.port.usb
        return [finding.device ?? finding.port.peerPath, finding.tty, finding.usbIDs, usb?.manufacturer, usb?.product,
                usb?.serialNumber, usb?.interfaceNumber.map(String.init), finding.answer.column]
            .map { $0.map(TerminalText.sanitized) ?? "-" }
    }

    /// One `port` line.
    static func json(_ finding: SerialPortFinding) -> JSONValue {
        let usb = finding.port.usb
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return JSONEvent.object("port", [
            JSONField("device", text(finding.device)),
            JSONField("path", .string(finding.port.peerPath)),
            JSONField("tty", .string(finding.tty)),
            JSONField("usb", text(finding.usbIDs)),
            JSONField("manufacturer", text(usb?.manufacturer)),
            JSONField("product", text(usb?.product)),
            JSONField("serial_number", text(usb?.serialNumber)),
            JSONField("interface", usb?.interfaceNumber.map { .int($0) } ?? .null),
            JSONField("answer", text(finding.answer.jsonName)),
            JSONField("protocol", text(finding.answer.protocolName.flatMap(ProtocolRegistry.entry(named:))?.scanJSONName)),
            JSONField("supported", .bool(finding.supported)),
            JSONField("error", text(finding.answer.error)),
        ])
    }

    /// The last line: the scan's `result`, as for Bluetooth, with no adapter.
    static func jsonResult(count: Int) -> JSONValue {
        ScanOutput.jsonResult(adapter: nil, count: count, error: nil)
    }

    /// The line after the table: how many ports answered what, or that there are none and what to check.
    static func summary(_ findings: [SerialPortFinding], probed: Bool, baud: Int) -> String {
        guard !findings.isEmpty else {
            return "no serial ports found (ttyACM*, ttyUSB*, /dev/serial/by-id); check that the board is plugged in "
                + "and powered, and that its USB cable carries data"
        }
        let noun = findings.count == 1 ? "serial port" : "serial ports"
        guard probed else { return "\(findings.count) \(noun) (not probed)" }
        // Probes in registry order, then the rest as they come.
        var words = ProtocolRegistry.serialProbes.map(\.label)
        for finding in findings where !words.contains(finding.answer.summaryWord) {
            words.append(finding.answer.summaryWord)
        }
        let counts = words.compactMap { word -> String? in
            let count = findings.filter { $0.answer.summaryWord == word }.count
            return count > 0 ? "\(count) \(word)" : nil
        }
        return "\(findings.count) \(noun), probed at \(baud) baud: " + counts.joined(separator: ", ")
    }
}
