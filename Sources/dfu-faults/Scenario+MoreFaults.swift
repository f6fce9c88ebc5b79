import DeviceSim
import ExitCodes

extension Scenario {
    /// The SMP scenarios of issue 22's second list: two replies swapped and one cut short, the device
    /// resetting at the activation's requests, and its battery falling during the upload.
    static let smpMoreCatalogue: [Scenario] = [
        Scenario(name: "reorder", summary: "the reply to one chunk at a random point is held back and sent after the next reply (the two swap)",
                 fault: "reorder@random", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "truncate", summary: "the reply to one chunk at a random point arrives without its last byte (its header announces one more)",
                 fault: "truncate@random", otherBootloaderKey: false, expectation: .failsThenRerunCompletes(.deviceRejected)),
        Scenario(name: "reboot-before-mark", summary: "the device resets as the request to mark the image for test arrives (the mark never made)",
                 fault: "reboot-before@request:state-write", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "reboot-at-mark", summary: "the device marks the image for test, then resets instead of answering (MCUboot swaps: it boots the new image on test)",
                 fault: "reboot@request:state-write", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "reboot-after-mark", summary: "the device answers the mark, then resets before the reset request (MCUboot swaps)",
                 fault: "reboot-after@request:state-write", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "reboot-at-reset", summary: "the device resets at once when the reset request arrives, without answering it",
                 fault: "reboot@request:reset", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "battery-falls", summary: "the device's battery falls to 10 % (below --min-battery's 30 %) after a chunk at a random point; charged before the rerun",
                 fault: "battery@random:10", otherBootloaderKey: false, expectation: .failsThenRerunCompletes(.preconditionNotMet)),
    ]

    /// The Nordic counterparts: a Control Point answer corrupted, cut short, lost or sent twice, the
    /// device losing power as the activating Execute arrives, and the bootloader at an address
    /// unrelated to the application's. (Nothing is reordered: the bootloader answers one request at
    /// a time, in order, over a link that keeps the order.)
    static let nordicMoreCatalogue: [Scenario] = [
        nordicMore("nordic-corrupt", "the answer to one data object's Calculate Checksum at a random point arrives with its last (CRC) byte inverted",
                   NordicFaults(checksumAnswer: .corrupt), .completes),
        nordicMore("nordic-truncate", "the answer to one data object's Calculate Checksum at a random point arrives without its last byte",
                   NordicFaults(checksumAnswer: .truncate), .interruptedThenRerunCompletes(.deviceRejected)),
        nordicMore("nordic-stall", "the answer to one data object's Calculate Checksum at a random point is never sent; the bootloader carries on",
                   NordicFaults(checksumAnswer: .drop), .interruptedThenRerunCompletes(.transferInterrupted)),
        nordicMore("nordic-duplicate", "the answer to one data object's Calculate Checksum at a random point is sent twice",
                   NordicFaults(checksumAnswer: .duplicate), .interruptedThenRerunCompletes(.deviceRejected)),
        nordicMore("nordic-power-cycle-at-activation", "the device loses power as the final Execute (the one that activates the firmware) arrives",
                   NordicFaults(powerCycleAtActivation: true), .interruptedThenRerunCompletes(.transferInterrupted)),
        nordicMore("nordic-bootloader-elsewhere", "the bootloader advertises at an address of its own, unrelated to the application's (bl_address=random)",
                   NordicFaults(bootloaderElsewhere: true), .completes),
    ]

    private static func nordicMore(_ name: String, _ summary: String, _ faults: NordicFaults, _ expectation: Expectation) -> Scenario {
        Scenario(name: name, summary: summary, fault: nil, otherBootloaderKey: false, expectation: expectation, nordic: faults)
    }

    /// Of those, the ones that also run over UDP and serial. Not `battery-falls`: neither link has
    /// a Battery Service, so dfu checks no battery there (before or after the transfer).
    static let moreLinkFaultNames = ["reorder", "truncate", "reboot-before-mark", "reboot-at-mark", "reboot-after-mark",
                                     "reboot-at-reset"]
}
