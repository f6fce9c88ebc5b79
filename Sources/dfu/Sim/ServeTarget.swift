import ArgumentParsing
import Transport
import UDPTransport

/// Where `dfu sim --serve` serves the device: over UDP (`udp:HOST:PORT`), on a pseudo-terminal
/// (`serial:PATH,…`) or as a BLE peripheral through bluetoothd (`bluez:hciN`).
enum ServeTarget: Sendable, Hashable {
    case udp(HostAndPort)
    case serial(SerialServeSpec)
    case bluez(adapter: String)

    /// Parses `--serve`; the address is not resolved and the adapter not looked up here.
    init(parsing text: String) throws(UsageError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("udp:") {
            do throws(UDPAddressError) {
                self = .udp(try HostAndPort(parsing: String(text.dropFirst(4))))
            } catch {
                throw UsageError("invalid --serve '\(text)': \(error)")
            }
        } else if lowered.hasPrefix("serial:") {
            self = .serial(try SerialServeSpec(parsing: String(text.dropFirst(7))))
        } else if lowered.hasPrefix("bluez:") {
            let adapter = String(text.dropFirst(6))
            guard adapter.hasPrefix("hci"), adapter.count > 3, adapter.dropFirst(3).allSatisfy(\.isASCIIDigit) else {
                throw UsageError("invalid --serve '\(text)': give an adapter name like bluez:hci0 "
                    + "('bluetoothctl list' or 'btmgmt info' shows them)")
            }
            self = .bluez(adapter: adapter)
        } else {
            let kind = text.firstIndex(of: ":").map { "'\(text[..<$0])'" } ?? "'\(text)'"
            throw UsageError("--serve \(kind) is not a way to serve: give udp:HOST:PORT (e.g. udp:127.0.0.1:1337), "
                + "serial:PATH (e.g. serial:/tmp/ttyDFU) or bluez:hciN (e.g. bluez:hci0)")
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
