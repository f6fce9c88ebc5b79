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
        process("batch-kill-twice", "as batch-kill, then the same dfu batch is killed in its turn once the devices have been sent "
                + "a random share of an image more; then the same dfu batch a third time",
                .batch(devices: 6, parallel: 2, killedAgain: true), fault: "SIGKILL@random+SIGKILL@random"),
        process("kill-resume-twice", "dfu flash (over UDP) is killed at a random point of the transfer (5-80 %), then dfu resume is "
                + "killed in its turn, at a random share of what is left or as the device ends the upload, is marked, resets or is "
                + "confirmed; then dfu resume again", .flash(.resume, also: .finisherKilled),
                fault: "SIGKILL@random+SIGKILL@random"),
        process("kill-rerun-twice", "dfu flash (over UDP) is killed at a random point of the transfer (5-80 %), then the same dfu flash "
                + "is killed in its turn, at a random share of what is left or as the device ends the upload, is marked, resets or is "
                + "confirmed; then the same dfu flash again", .flash(.rerun, also: .finisherKilled),
                fault: "SIGKILL@random+SIGKILL@random"),
        process("kill-at-reboot", "the device resets after a chunk at a random point (reboot@random) and dfu flash (over UDP) is killed "
                + "as it does, as one power cut takes down both: the upload session is lost; then dfu resume",
                .flash(.resume, also: .deviceResetsAtKill), fault: "reboot@random+SIGKILL@resetting"),
        process("kill-then-reboot", "dfu flash (over UDP) is killed at a random point of the transfer (5-60 %); the same dfu flash "
                + "run again carries the upload on and meets a device reset 15-35 % of the image later (reboot@N%): the session "
                + "it carried on is lost (a quarter of --runs: the rerun waits out its 5 s chunk deadline in real time)",
                .flash(.rerun, also: .deviceResetsInFinish), fault: "SIGKILL@random+reboot@random", costly: true),
        process("kill-in-outage", "nothing reaches the device (over UDP) or leaves it for 10-40 s from a chunk at a random point "
                + "(outage@random) and dfu flash is killed as the outage begins; then dfu resume, which meets the device still out "
                + "and must wait for it: the device kept its session", .flash(.resume, also: .outageAtKill),
                fault: "outage@random+SIGKILL@outage"),
        process("serial-kill-rerun", "dfu flash over a serial line (the device on a pseudo-terminal, console framing, 1,000,000 "
                + "baud) is killed at a random point of the transfer, or as the device ends the upload, is marked, resets or is "
                + "confirmed; then the same dfu flash again", .flash(.rerun, over: .serial)),
        process("serial-kill-resume", "as serial-kill-rerun, then dfu resume", .flash(.resume, over: .serial)),
        process("serial-usb-kill-at-drop", "the device on a USB serial port drops the line at a random point of the transfer "
                + "(disconnect@random: the port vanishes and comes back) and dfu flash is killed as it does; then dfu resume, "
                + "which opens the port again and carries the upload on", .flash(.resume, also: .linkDropAtKill, over: .usbSerial),
                fault: "disconnect@random+SIGKILL@link-drop"),
        process("bluez-kill-rerun", "dfu flash over BlueZ (the stand-in on a private bus) is killed at a random point of the transfer, "
                + "or as the device ends the upload, is marked, resets or is confirmed; bluetoothd keeps the dead client's link up "
                + "(unless the device reset); then the same dfu flash again", .flash(.rerun, over: .bluez)),
        process("bluez-kill-resume", "as bluez-kill-rerun, then dfu resume", .flash(.resume, over: .bluez)),
        process("bluez-kill-at-drop", "the device drops the link at a random point of the transfer (disconnect@random) and dfu "
                + "flash over BlueZ is killed as it does, before it reconnects; then dfu resume, which connects again and "
                + "carries the upload on (the device kept its session)", .flash(.resume, also: .linkDropAtKill, over: .bluez),
                fault: "disconnect@random+SIGKILL@link-drop"),
        nordicProcess("nordic-kill-rerun", "dfu flash of the Nordic package over a serial line (SLIP, the nRF5 bootloader's serial DFU) "
                      + "is killed at a random point of the firmware; then the same dfu flash again", .flash(.rerun)),
        nordicProcess("nordic-kill-resume", "as nordic-kill-rerun, then dfu resume", .flash(.resume)),
        nordicProcess("nordic-kill-resume-twice", "dfu flash of the Nordic package over a serial line is killed at a random point "
                      + "of the firmware (5-80 %), then dfu resume at a random share of what is left; then dfu resume again",
                      .flash(.resume, also: .finisherKilled), fault: "SIGKILL@random+SIGKILL@random"),
        nordicProcess("nordic-kill-at-activation", "dfu flash of the Nordic package over a serial line is killed as the "
                      + "bootloader gets the last Execute, which starts the new application; the board is put back in DFU mode "
                      + "(a power cycle with its DFU button held), as a serial-only nRF52 needs; then the same dfu flash again",
                      .flash(.rerun, also: .killedAtLastExecute), fault: "SIGKILL@last-execute"),
        nordicProcess("nordic-kill-at-power-cut", "dfu flash of the Nordic package over a serial line is killed at a random "
                      + "point of the firmware by a power cut that takes the device down too: it starts its old application and "
                      + "is put back in DFU mode; then the same dfu flash again",
                      .flash(.rerun, also: .powerCutAtKill), fault: "SIGKILL@random+power-cut"),
        nordicProcess("bluez-nordic-kill-rerun", "dfu flash of the Nordic package over BlueZ (the stand-in on a private bus; the "
                      + "application's buttonless DFU, then the bootloader at the address + 1) is killed at a random point of the "
                      + "firmware, the device left in its bootloader; then the same dfu flash again", .flash(.rerun, over: .bluez)),
        nordicProcess("bluez-nordic-kill-resume", "as bluez-nordic-kill-rerun, then dfu resume", .flash(.resume, over: .bluez)),
        nordicProcess("bluez-nordic-elsewhere-kill-rerun", "as bluez-nordic-kill-rerun, but the bootloader advertises at an "
                      + "address of its own (bl_address=random): the next dfu finds it only by the name the killed one gave it",
                      .flash(.rerun, over: .bluez), faults: NordicFaults(bootloaderElsewhere: true)),
        nordicProcess("bluez-nordic-elsewhere-kill-resume", "as bluez-nordic-elsewhere-kill-rerun, then dfu resume",
                      .flash(.resume, over: .bluez), faults: NordicFaults(bootloaderElsewhere: true)),
        nordicProcess("bluez-nordic-kill-at-power-cut", "dfu flash of the Nordic package over BlueZ is killed at a random point "
                      + "of the firmware by a power cut that takes the device down too: it starts its old application, whose "
                      + "buttonless DFU the next dfu uses again; then dfu resume",
                      .flash(.resume, also: .powerCutAtKill, over: .bluez), fault: "SIGKILL@random+power-cut"),
        nordicProcess("nordic-batch-kill", "dfu batch of 5 Nordic serial bootloaders, --parallel 2, is killed once one device is "
                      + "done and another has been sent a random share of its firmware (the rest not started); the devices that "
                      + "run their application are put back in DFU mode; then the same dfu batch again", .batch(devices: 5, parallel: 2)),
        nordicProcess("nordic-batch-kill-twice", "as nordic-batch-kill, then the same dfu batch is killed in its turn once the "
                      + "bootloaders have been sent a random share of a package more; the devices put back in DFU mode again; "
                      + "then the same dfu batch a third time", .batch(devices: 5, parallel: 2, killedAgain: true),
                      fault: "SIGKILL@random+SIGKILL@random"),
    ]

    private static func process(_ name: String, _ summary: String, _ death: ProcessDeath,
                                fault: String = "SIGKILL@random", costly: Bool = false) -> Scenario {
        // `fault` only names what befalls the run for --list and the JSON report: the run builds
        // its `sim:` options itself (`FlashDeathPlan`).
        var scenario = Scenario(name: name, summary: summary, fault: fault, otherBootloaderKey: false, expectation: .completes)
        scenario.link = .process
        scenario.processDeath = death
        scenario.costly = costly
        return scenario
    }

    private static func nordicProcess(_ name: String, _ summary: String, _ death: ProcessDeath,
                                      fault: String = "SIGKILL@random", faults: NordicFaults = NordicFaults()) -> Scenario {
        var scenario = process(name, summary, death, fault: fault)
        scenario.nordic = faults
        return scenario
    }
}
