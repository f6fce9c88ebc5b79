extension Scenario {
    /// The process-death scenarios (`--link process`): the `dfu` binary runs as a child process
    /// against a device model the campaign serves, and is killed with SIGKILL; what finishes the
    /// update after it must exit 0 and leave the device on the new image, confirmed.
    static let processCatalogue: [Scenario] = [
        process("kill-rerun", "dfu flash (the binary, over UDP) is killed (SIGKILL) at a random point of the transfer, or as the device "
                + "ends the upload, is marked, resets or is confirmed; then the same dfu flash again", .flash(.rerun)),
        process("kill-resume", "as kill-rerun, then dfu resume (from the journal the killed run kept)", .flash(.resume)),
        process("batch-kill", "dfu batch of 6 devices over UDP, --parallel 2, is killed once one device is done and another has "
                + "sent a random share of its image (the rest not started); then the same dfu batch again", .batch(devices: 6, parallel: 2)),
        nordicProcess("nordic-kill-rerun", "dfu flash of the Nordic package over a serial line (SLIP, the nRF5 bootloader's serial DFU) "
                      + "is killed at a random point of the firmware; then the same dfu flash again", .flash(.rerun)),
        nordicProcess("nordic-kill-resume", "as nordic-kill-rerun, then dfu resume", .flash(.resume)),
    ]

    private static func process(_ name: String, _ summary: String, _ death: ProcessDeath) -> Scenario {
        // `fault` only names the kill for --list and the JSON report: no `sim:` option carries it.
        var scenario = Scenario(name: name, summary: summary, fault: "SIGKILL@random", otherBootloaderKey: false, expectation: .completes)
        scenario.link = .process
        scenario.processDeath = death
        return scenario
    }

    private static func nordicProcess(_ name: String, _ summary: String, _ death: ProcessDeath) -> Scenario {
        var scenario = process(name, summary, death)
        scenario.nordic = NordicFaults()
        return scenario
    }
}
