/// A serial port and how to talk on it, from `serial:PATH[,baud=N][,raw][,recovery][,rtscts]`:
///
/// | option | meaning |
/// |---|---|
/// | `baud=N` | the line's rate (default 115200; the termios rates 1200…4000000) |
/// | `raw` | raw SMP packets (`CONFIG_MCUMGR_TRANSPORT_RAW_UART`) instead of the console framing |
/// | `recovery` | the device waits in MCUboot's serial recovery: the image goes straight into the primary slot (`MCUbootRecovery`) |
/// | `rtscts` | hardware flow control |
///
/// Parsing never opens the port: a missing or busy port is found when connecting, with its own
/// error. PATH must be absolute (`/dev/ttyACM0`, `/dev/serial/by-id/usb-…`).
struct SerialEndpoint: Sendable, Hashable, CustomStringConvertible {
    var path: String
    var baud: Int = SerialEndpoint.defaultBaud
    var raw = false
    var recovery = false
    var hardwareFlowControl = false

    static let defaultBaud = 115_200

    /// Why a text is not a serial endpoint; `reason` names the part that is wrong.
    struct Invalid: Error, Sendable, Equatable {
        var reason: String
    }

    init(path: String) { self.path = path }

    /// Parses the part after `serial:`.
    init(parsing text: String) throws(Invalid) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let path = parts.first, !path.isEmpty else {
            throw Invalid(reason: "give a port after 'serial:' (serial:/dev/ttyACM0)")
        }
        guard path.hasPrefix("/") else {
            throw Invalid(reason: "the port '\(path)' is not an absolute path; give /dev/ttyACM0 or /dev/serial/by-id/…")
        }
        guard !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Invalid(reason: "the port path contains control characters")
        }
        self.path = path
        for option in parts.dropFirst() {
            let pair = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pair.first.map { $0.lowercased() } ?? ""
            switch (key, pair.count) {
            case ("baud", 2):
                guard let value = Int(pair[1]), value > 0 else {
                    throw Invalid(reason: "baud=\(pair[1]) is not a rate; give a number like baud=115200")
                }
                baud = value
            case ("raw", 1): raw = true
            case ("recovery", 1): recovery = true
            case ("rtscts", 1): hardwareFlowControl = true
            case ("", _):
                throw Invalid(reason: "an empty option after the port; options are baud=N, raw, recovery, rtscts")
            default:
                throw Invalid(reason: "unknown option '\(option)'; options are baud=N, raw, recovery, rtscts")
            }
        }
    }

    /// The canonical text after `serial:`: `init(parsing: description) == self`.
    var description: String {
        var text = path
        if baud != Self.defaultBaud { text += ",baud=\(baud)" }
        if raw { text += ",raw" }
        if recovery { text += ",recovery" }
        if hardwareFlowControl { text += ",rtscts" }
        return text
    }
}
