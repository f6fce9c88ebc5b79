/// One question `dfu scan --serial` asks a serial port to learn what listens on it, supplied by a
/// protocol through its registry entry (SMP asks twice, once per framing; Nordic Secure DFU once):
/// the bytes to write, and how to tell the answer from anything else the port sends (a boot
/// banner, shell output, an answer to another protocol's question). `SerialProber` asks them in
/// registry order, one at a time, on one open port.
package struct SerialProbe: Sendable {
    /// The protocol a port that answers speaks.
    package let protocolName: UpdateProtocolName
    /// The scan's words for a port that answers: "SMP (console)".
    package let label: String
    /// The JSON `answer`: "smp-console".
    package let jsonName: String
    /// What follows the path in `--device serial:PATH,…` for dfu to talk as this probe did
    /// (`raw`); empty for the defaults.
    package let deviceOptions: [String]
    /// The bytes written, framed as the line carries them.
    package let request: [UInt8]
    private let listen: @Sendable () -> any SerialProbeListener

    init(protocolName: UpdateProtocolName, label: String, jsonName: String, deviceOptions: [String] = [],
         request: [UInt8], listen: @escaping @Sendable () -> any SerialProbeListener) {
        self.protocolName = protocolName
        self.label = label
        self.jsonName = jsonName
        self.deviceOptions = deviceOptions
        self.request = request
        self.listen = listen
    }

    /// A listener that has heard nothing yet.
    package func listener() -> any SerialProbeListener { listen() }
}

/// Watches the bytes a port sends after a probe's request for the answer to it. Sans-I/O: chunks
/// in, split anywhere; true once they complete the answer.
package protocol SerialProbeListener: Sendable {
    mutating func receive(_ bytes: [UInt8]) -> Bool
}
