import DFUCore
import SerialTransport
import Transport

/// One row of `dfu scan --serial`: the port, what answered on it, and the `--device` text that
/// talks to it the way it answered.
struct SerialPortFinding: Sendable {
    var port: SerialPortInfo
    var answer: SerialPortAnswer
    /// The line speed probed at, which the `--device` text carries when it is not the default.
    var baud: Int

    /// `serial:PATH[,baud=N][,raw]`, canonical as `--device` prints it back; nil for a path that
    /// `--device` cannot carry (one with a comma or a control character).
    var device: String? {
        var text = port.peerPath
        if baud != SerialEndpoint.defaultBaud { text += ",baud=\(baud)" }
        if case .answered(let probe) = answer { text += probe.deviceOptions.map { "," + $0 }.joined() }
        guard let endpoint = try? SerialEndpoint(parsing: text), endpoint.path == port.peerPath else { return nil }
        return "serial:" + endpoint.description
    }

    /// The tty's name: the node's path under /dev (`ttyACM0`, `pts/3`), else its last part.
    var tty: String {
        let path = port.devicePath
        if path.hasPrefix("/dev/") { return String(path.dropFirst("/dev/".count)) }
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The USB vendor and product ids as lsusb shows them (`2fe3:0100`).
    var usbIDs: String? {
        port.usb.map { hexDigits($0.vendorID, width: 4, uppercase: false) + ":" + hexDigits($0.productID, width: 4, uppercase: false) }
    }

    /// Whether `dfu flash --device` can update what answered over this port.
    var supported: Bool {
        answer.protocolName.map(DeviceTarget.serialProtocols.contains) ?? false
    }
}
