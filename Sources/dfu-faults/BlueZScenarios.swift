extension Scenario {
    /// `bluez-<name>`: every memory-link scenario, SMP and Nordic, with the virtual device behind
    /// the stand-in bluetoothd on a private dbus-daemon, reached by dfu's BlueZ central
    /// (`ServedDevice.bluez`, `NordicLink`). BlueZ, like the memory link, reports a lost link
    /// (Connected=false, the acquired sockets hung up), so the drops and resets keep their meaning;
    /// the faults are the device's, behind bluetoothd.
    static let bluezCatalogue: [Scenario] = (smpCatalogue + nordicCatalogue).map { scenario in
        var onLink = Scenario(name: FaultLink.bluez.prefix + scenario.name, summary: "bluez: " + scenario.summary,
                              fault: scenario.fault, otherBootloaderKey: scenario.otherBootloaderKey,
                              expectation: scenario.expectation, nordic: scenario.nordic)
        onLink.link = .bluez
        return onLink
    }
}
