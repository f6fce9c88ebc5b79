import ExitCodes

extension Scenario {
    /// The Nordic Secure DFU scenarios: `app-signed-3.zip` onto the virtual nRF52 running app_version 1.
    static let nordicCatalogue: [Scenario] = [
        nordic("nordic-none", "no fault: the Nordic baseline (SDK 17)", NordicFaults(), .completes),
        nordic("nordic-disconnect", "SDK 17: the bootloader link drops once at a random point of the firmware (its RAM progress is gone; it answers from its stored settings)",
               NordicFaults(linkDrop: true), .completes),
        nordic("nordic-disconnect-sdk15", "SDK 15: the bootloader link drops once at a random point of the firmware (progress kept in RAM)",
               NordicFaults(sdk: 15, linkDrop: true), .completes),
        nordic("nordic-drop-packets", "three random Packet writes dropped by the bootloader as if its buffers were full",
               NordicFaults(droppedPackets: 3), .completes),
        nordic("nordic-power-cycle", "the device loses power once at a random point of the firmware (data progress lost; it boots its old app, which is valid)",
               NordicFaults(powerCycle: true), .interruptedThenRerunCompletes(.transferInterrupted)),
        nordic("nordic-wrong-key", "no fault on the link; the bootloader trusts another key, so it refuses the init packet",
               NordicFaults(otherBootloaderKey: true), .refusedBeforeTransfer(.deviceRejected)),
    ]

    private static func nordic(_ name: String, _ summary: String, _ faults: NordicFaults, _ expectation: Expectation) -> Scenario {
        Scenario(name: name, summary: summary, fault: nil, otherBootloaderKey: faults.otherBootloaderKey,
                 expectation: expectation, nordic: faults)
    }
}
