extension Scenario {
    /// `bluez-<name>`: the memory-link scenarios, SMP and Nordic, both lists, with the virtual
    /// device behind the stand-in bluetoothd on a private dbus-daemon, reached by dfu's BlueZ
    /// central (`ServedDevice.bluez`, `NordicLink`). BlueZ, like the memory link, reports a lost
    /// link (Connected=false, the acquired sockets hung up), so the drops and resets keep their
    /// meaning; the faults are the device's, behind bluetoothd. Not `silent` and `outage`, which
    /// the memory link does not run either: a BLE link layer acknowledges and retransmits every
    /// packet until its supervision timeout ends the link, so neither is what a BLE device shows
    /// (docs/faults.md, Links). Then the scenarios only BlueZ can play: a device at a new address.
    static let bluezCatalogue: [Scenario] = (smpCatalogue + smpMoreCatalogue).map(onBlueZ) + bluezOnlyCatalogue
        + (nordicCatalogue + nordicMoreCatalogue).map(onBlueZ)

    /// An SMP device that comes back from its reset under another Bluetooth address (a Zephyr
    /// device without a stored identity makes a new random static address at every boot), while
    /// dfu was given the old one: `BlueZConnector` looks for it by the name it advertised and the
    /// SMP service once half of the reboot timeout has passed. That timeout is real time, so at
    /// the default 60 s the search by name would begin after 30 s of real time, past the hang
    /// guard: this scenario runs with `--reboot-timeout 6` (real; 120 s of model time).
    static let bluezOnlyCatalogue: [Scenario] = {
        var moving = Scenario(name: "new-address", summary: "the device comes back from its reset at the activation under another Bluetooth address (dfu was given the old one; --reboot-timeout 6)",
                              fault: nil, otherBootloaderKey: false, expectation: .completes)
        moving.movesAfterReboot = true
        moving.rebootTimeout = .seconds(6)
        return [onBlueZ(moving)]
    }()

    private static func onBlueZ(_ scenario: Scenario) -> Scenario {
        var onLink = Scenario(name: FaultLink.bluez.prefix + scenario.name, summary: "bluez: " + scenario.summary,
                              fault: scenario.fault, otherBootloaderKey: scenario.otherBootloaderKey,
                              expectation: scenario.expectation, nordic: scenario.nordic)
        onLink.link = .bluez
        onLink.movesAfterReboot = scenario.movesAfterReboot
        onLink.rebootTimeout = scenario.rebootTimeout
        return onLink
    }
}
