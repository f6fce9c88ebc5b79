import ExitCodes

extension Scenario {
    /// `serial-nordic-*`: the Nordic scenarios that make sense on a serial line, the virtual nRF52's
    /// bootloader on a pseudo-terminal reached by dfu's Nordic serial connector
    /// (`NordicSerialScenarioRun`). A UART, at 1,000,000 baud, unless the row says USB (CDC ACM:
    /// its port vanishes while the device resets). Not `nordic-disconnect` on a UART (no connection
    /// to drop: the USB row drops the line instead), `-sdk15` (the same drop), or
    /// `nordic-bootloader-elsewhere` (a port has no address).
    static let nordicSerialCatalogue: [Scenario] = [
        serial("none", "no fault: the Nordic baseline over a UART (SDK 17)", NordicFaults(), .completes),
        serial("power-cycle", "the device loses power once at a random point of the firmware; its UART says nothing, it boots its old app, and is put back into DFU mode by hand before the rerun",
               NordicFaults(powerCycle: true), .interruptedThenRerunCompletes(.transferInterrupted)),
        serial("usb-power-cycle", "USB: the device loses power once at a random point of the firmware, its port vanishing with it; it boots its old app, and is put back into DFU mode by hand before the rerun",
               NordicFaults(powerCycle: true, usb: true), .interruptedThenRerunCompletes(.transferInterrupted)),
        serial("usb-disconnect", "USB: the bootloader drops the line after a random Write Object of the firmware (drop=packet:N): its port vanishes and comes back",
               NordicFaults(linkDrop: true, usb: true), .completes),
        serial("drop-packets", "three random Write Objects dropped by the bootloader as if its UART buffer overflowed",
               NordicFaults(droppedPackets: 3), .completes),
        serial("corrupt", "the answer to one data object's Calculate Checksum at a random point arrives with its last (CRC) byte inverted",
               NordicFaults(checksumAnswer: .corrupt), .completes),
        serial("truncate", "the answer to one data object's Calculate Checksum at a random point arrives without its last byte",
               NordicFaults(checksumAnswer: .truncate), .interruptedThenRerunCompletes(.deviceRejected)),
        serial("stall", "the answer to one data object's Calculate Checksum at a random point is never sent (a response frame lost)",
               NordicFaults(checksumAnswer: .drop), .interruptedThenRerunCompletes(.transferInterrupted)),
        serial("duplicate", "the answer to one data object's Calculate Checksum at a random point is sent twice",
               NordicFaults(checksumAnswer: .duplicate), .interruptedThenRerunCompletes(.deviceRejected)),
        serial("power-cycle-at-activation", "the device loses power as the final Execute arrives (UART); put back into DFU mode by hand before the rerun",
               NordicFaults(powerCycleAtActivation: true), .interruptedThenRerunCompletes(.transferInterrupted)),
        serial("usb-power-cycle-at-activation", "USB: the device loses power as the final Execute arrives, and its port vanishes at once; put back into DFU mode by hand before the rerun",
               NordicFaults(powerCycleAtActivation: true, usb: true), .interruptedThenRerunCompletes(.transferInterrupted)),
        serial("wrong-key", "no fault on the line; the bootloader trusts another key, so it refuses the init packet",
               NordicFaults(otherBootloaderKey: true), .refusedBeforeTransfer(.deviceRejected)),
    ]

    private static func serial(_ name: String, _ summary: String, _ faults: NordicFaults, _ expectation: Expectation) -> Scenario {
        var scenario = Scenario(name: FaultLink.serial.prefix + "nordic-" + name, summary: "serial: " + summary, fault: nil,
                                otherBootloaderKey: faults.otherBootloaderKey, expectation: expectation, nordic: faults)
        scenario.link = .serial
        return scenario
    }
}
