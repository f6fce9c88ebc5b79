extension Scenario {
    /// The memory-link scenarios that make sense on a link without a loss signal (no `disconnect`:
    /// UDP and a UART have no connection to drop), plus the faults only such a link shows as
    /// silence: a device deaf until the upload's resume packet, and a 2 s outage that heals.
    static let linkFaultNames = ["none", "reboot", "stall", "delay", "duplicate", "busy", "corrupt"]

    /// Scenarios left off the serial link (none since finding 6 was fixed: a rerun drops the
    /// first update's leftover replies, docs/faults.md).
    static let notOnSerial: Set<String> = []

    static let silentAndOutage: [Scenario] = [
        Scenario(name: "silent", summary: "the device goes deaf after a chunk at a random point (its reply lost) and hears nothing until the upload's resume packet (off 0, same sha)",
                 fault: "silent@random", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "outage", summary: "nothing reaches the device and nothing leaves it for 2 s after a chunk at a random point (its reply lost); the session is kept",
                 fault: "outage@random:2000ms", otherBootloaderKey: false, expectation: .completes),
    ]

    /// The SMP scenarios over UDP (a real socket to `VirtualDeviceUDPServer` on 127.0.0.1) and over
    /// a pseudo-terminal (`VirtualDeviceSerialServer` at 1,000,000 baud, console framing).
    static let linkCatalogue: [Scenario] = [FaultLink.udp, .serial].flatMap { link in
        let onLinks = linkFaultNames + moreLinkFaultNames
        let base = (smpCatalogue + smpMoreCatalogue)
            .filter { onLinks.contains($0.name) && !(link == .serial && notOnSerial.contains($0.name)) }
            + silentAndOutage
        return base.map { scenario in
            var onLink = Scenario(name: link.prefix + scenario.name, summary: "\(link.rawValue): " + scenario.summary,
                                  fault: scenario.fault, otherBootloaderKey: scenario.otherBootloaderKey,
                                  expectation: scenario.expectation)
            onLink.link = link
            return onLink
        }
    }
}
