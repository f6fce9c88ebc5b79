extension Scenario {
    /// The rate dfu and nrfutil take when no `baud=` is given (`SerialEndpoint.defaultBaud`).
    static let slowLineBaud = 115_200

    /// Serial rows of either protocol again at `slowLineBaud`, where the others run at
    /// `ServedDevice.serialBaud` to keep their real time short: at a ninth of the speed a chunk or
    /// an object takes nine times the line time, which every deadline of dfu's must allow for.
    static let slowLineNames = ["serial-none", "serial-stall", "serial-silent", "serial-nordic-none",
                                "serial-nordic-drop-packets", "serial-nordic-stall"]

    /// `serial-none-115200`, …: those rows, in that order, at `slowLineBaud`.
    static let slowLineCatalogue: [Scenario] = slowLineNames.compactMap { name in
        guard let scenario = (linkCatalogue + nordicSerialCatalogue).first(where: { $0.name == name }) else { return nil }
        var slow = Scenario(name: "\(name)-\(slowLineBaud)",
                            summary: "at \(slowLineBaud) baud, " + scenario.summary,
                            fault: scenario.fault, otherBootloaderKey: scenario.otherBootloaderKey,
                            expectation: scenario.expectation, nordic: scenario.nordic)
        slow.link = scenario.link
        slow.baud = slowLineBaud
        return slow
    }
}
