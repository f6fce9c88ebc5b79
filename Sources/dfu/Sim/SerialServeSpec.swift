import ArgumentParsing
import DeviceSim

/// `dfu sim --serve serial:PATH[,baud=N][,raw][,noise[=N]][,usb][,garble=N][,recovery][,app-silent]`:
/// a pseudo-terminal linked at PATH, and how the device uses its line (`SerialServeOptions`).
///
/// | option | meaning |
/// |---|---|
/// | `baud=N` | the modelled line rate (default 115200): 10 bits a byte each way |
/// | `raw` | raw SMP packets instead of the console framing |
/// | `noise`, `noise=N` | a Zephyr log line every N replies (default 5), between frames; console only |
/// | `usb` | the port vanishes while the device resets (USB CDC ACM) and comes back at PATH |
/// | `garble=N` | one character of every N-th reply is garbled on the wire; console only |
/// | `recovery` | the device powers up in MCUboot's serial recovery (the recovery button held) |
/// | `app-silent` | the application answers nothing on the line (no SMP transport there) |
struct SerialServeSpec: Sendable, Hashable {
    var path: String
    var options = SerialServeOptions()

    static let defaultNoiseEvery = 5
    static let expected = "serial:PATH[,baud=N][,raw][,noise[=N]][,usb][,garble=N][,recovery][,app-silent] (e.g. serial:/tmp/ttyDFU)"

    init(parsing text: String) throws(UsageError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        func invalid(_ reason: String) -> UsageError { UsageError("invalid --serve 'serial:\(text)': \(reason)") }
        guard let path = parts.first, path.hasPrefix("/") else {
            throw invalid("give the absolute path to link the port at, as in \(Self.expected)")
        }
        self.path = path
        for option in parts.dropFirst() {
            let pair = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let key = pair.first?.lowercased() ?? ""
            let value = pair.count == 2 ? pair[1] : nil
            func count(_ name: String) throws(UsageError) -> Int {
                guard let value, let number = Int(value), number >= 1 else {
                    throw invalid("\(name)= takes a count of replies from 1 up, not '\(value ?? "")'")
                }
                return number
            }
            switch (key, value) {
            case ("baud", _):
                guard let value, let baud = Int(value), (1_200...4_000_000).contains(baud) else {
                    throw invalid("baud= takes a rate from 1200 to 4000000, not '\(value ?? "")'")
                }
                options.baud = baud
            case ("raw", nil): options.framing = .raw
            case ("noise", nil): options.noiseEvery = Self.defaultNoiseEvery
            case ("noise", _): options.noiseEvery = try count("noise")
            case ("usb", nil): options.vanishesOnReset = true
            case ("garble", _): options.garbleEvery = try count("garble")
            case ("recovery", nil): options.startsInRecovery = true
            case ("app-silent", nil): options.applicationSilent = true
            default:
                throw invalid("unknown option '\(option)'; expected \(Self.expected)")
            }
        }
        if options.framing == .raw, options.noiseEvery != nil || options.garbleEvery != nil {
            // Raw SMP cannot share its UART with text (smp_transport.rst), and has no checksum to fail.
            throw invalid("noise and garble apply to the console framing, not to raw")
        }
    }
}
