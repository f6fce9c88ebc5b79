import ArgumentParsing

/// Which device a command talks to, from `--device`:
///
/// | text | device |
/// |---|---|
/// | `sim`, `sim:version=1.0.0,battery=15` | the built-in virtual device; the options go to DeviceSim unread |
/// | `udp:127.0.0.1:1337`, `udp:[::1]:1337`, `udp:localhost:1337` | an SMP server over UDP (port 1–65535; a name is looked up at each connect) |
/// | `serial:/dev/ttyACM0`, `serial:/dev/ttyUSB0,baud=1000000,raw` | a device on a serial port (`SerialEndpoint`) |
/// | `AA:BB:CC:DD:EE:FF` (any case) | a BLE device by address, through BlueZ |
/// | `name:Thingy` | a BLE device by its advertised name, through BlueZ |
///
/// Parsing never touches the network or the adapter; every mistake is a `UsageError` (exit 2) that
/// quotes what was given and names the part that is wrong.
enum DeviceSpec: Sendable, Hashable, CustomStringConvertible {
    /// `options` is the text after `sim:` (empty for plain `sim`), parsed by DeviceSim, which owns
    /// the list of keys.
    case simulator(options: String)
    case udp(UDPEndpoint)
    case serial(SerialEndpoint)
    case address(BluetoothAddress)
    case name(String)

    /// The longest name BLE can advertise (Core Specification, GAP: Device Name, 248 octets).
    static let maximumNameLength = 248

    /// The accepted forms, for error messages and help.
    static let forms = "sim, sim:KEY=VALUE,…, udp:HOST:PORT, serial:PATH[,baud=N,raw,recovery,rtscts], a Bluetooth address (AA:BB:CC:DD:EE:FF) or name:NAME"

    /// Why a text is not a device: the text and what is wrong with it, for each caller to word
    /// (`--device` on a command line, the device column of a batch plan).
    struct Invalid: Error, Sendable, Equatable {
        var text: String
        var reason: String
    }

    init(parsing text: String) throws(UsageError) {
        guard !text.isEmpty else {
            throw UsageError("--device needs a value: \(Self.forms)")
        }
        do throws(Invalid) { self = try Self(reading: text) } catch {
            throw UsageError("invalid --device '\(text)': \(error.reason)")
        }
    }

    init(reading text: String) throws(Invalid) {
        func invalid(_ reason: String) -> Invalid {
            Invalid(text: text, reason: reason)
        }
        guard !text.isEmpty else { throw invalid("it is empty; expected \(Self.forms)") }
        if text.lowercased() == "sim" {
            self = .simulator(options: "")
        } else if let options = Self.body(of: text, kind: "sim") {
            guard !options.isEmpty else {
                throw invalid("give options after 'sim:' (sim:version=1.0.0,battery=15) or write just 'sim'")
            }
            self = .simulator(options: options)
        } else if let endpoint = Self.body(of: text, kind: "udp") {
            do throws(UDPEndpoint.Invalid) {
                self = .udp(try UDPEndpoint(parsing: endpoint))
            } catch {
                throw invalid(error.reason)
            }
        } else if let port = Self.body(of: text, kind: "serial") {
            do throws(SerialEndpoint.Invalid) {
                self = .serial(try SerialEndpoint(parsing: port))
            } catch {
                throw invalid(error.reason)
            }
        } else if let name = Self.body(of: text, kind: "name") {
            guard !name.isEmpty else { throw invalid("the name after 'name:' is empty") }
            guard name.utf8.count <= Self.maximumNameLength else {
                throw invalid("the name is \(name.utf8.count) bytes; BLE names have at most \(Self.maximumNameLength)")
            }
            guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw invalid("the name contains control characters")
            }
            self = .name(name)
        } else if BluetoothAddress.looksLikeAddress(text) {
            do throws(BluetoothAddress.Invalid) {
                self = .address(try BluetoothAddress(parsing: text))
            } catch {
                throw invalid(error.reason)
            }
        } else if let colon = text.firstIndex(of: ":") {
            throw invalid("unknown kind '\(text[..<colon])'; expected \(Self.forms)")
        } else {
            throw invalid("expected \(Self.forms)")
        }
    }

    /// The canonical text: `init(parsing: spec.description) == spec`. Shows full addresses; use
    /// `displayName(fullAddresses:)` for anything printed during a run.
    var description: String {
        switch self {
        case .simulator(let options): return options.isEmpty ? "sim" : "sim:" + options
        case .udp(let endpoint): return "udp:" + endpoint.description
        case .serial(let endpoint): return "serial:" + endpoint.description
        case .address(let address): return address.description
        case .name(let name): return "name:" + name
        }
    }

    /// Whether it is reached through BlueZ (an address or a name), so an adapter and pairing apply.
    var isBluetooth: Bool {
        switch self {
        case .address, .name: return true
        case .simulator, .udp, .serial: return false
        }
    }

    /// How the device is named in output: a Bluetooth address shortened to `…:EE:FF` unless the
    /// user asked for full addresses (`--full-addresses`). The others identify no one's hardware
    /// (a name is the user's own label; a UDP endpoint is on their network; a port path is this
    /// computer's) and are shown as given.
    func displayName(fullAddresses: Bool) -> String {
        if case .address(let address) = self, !fullAddresses { return address.shortened }
        return description
    }

    /// The text after `kind:` when `text` starts with it (the kind in any case), else nil.
    private static func body(of text: String, kind: String) -> String? {
        let prefix = kind + ":"
        guard text.count >= prefix.count, text.prefix(prefix.count).lowercased() == prefix else { return nil }
        return String(text.dropFirst(prefix.count))
    }
}
