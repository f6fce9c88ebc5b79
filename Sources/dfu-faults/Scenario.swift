/// One fault scenario of the campaign: what the virtual device injects, and how a run of it must end.
struct Scenario: Sendable {
    let name: String
    /// One line for `--list`, the report and docs/faults.md: what is injected and where.
    let summary: String
    /// The `fault=` value of the device's `sim:` options (points drawn from the run's seed), or nil.
    let fault: String?
    /// Whether the device's bootloader has a key other than the one that signed the image.
    let otherBootloaderKey: Bool
    let expectation: Expectation
    /// Set for a Nordic Secure DFU scenario (the device is the virtual nRF52, the file a package);
    /// `fault` and `otherBootloaderKey` are then unused.
    var nordic: NordicFaults? = nil
    /// The link a scenario runs over (`link` in its name: `udp-reboot`); Nordic runs in memory, over
    /// BlueZ or over serial (`serial-nordic-*`).
    var link: FaultLink = .memory
    /// The device comes back from its first reset under another Bluetooth address (BlueZ only:
    /// the stand-in moves it, `BlueZStandInDevice.addressAfterReboot`); the engine keeps the old one.
    var movesAfterReboot = false
    /// The engine's `--reboot-timeout`, where a scenario needs another than the default (60 s). It
    /// is real time, as every `Connector` deadline (`EngineClock.reachableBy`), not model time.
    var rebootTimeout: Duration? = nil
    /// Set for a process-death scenario (`link` is then `.process`): the `dfu` binary runs as a
    /// child process and is killed (`ProcessDeaths/`).
    var processDeath: ProcessDeath? = nil
    /// The line's speed for a serial row, where it is not the campaign's (`serialBaud`).
    var baud: Int? = nil
    /// A run costs several seconds of real time whatever the time scale (a `dfu` child waits out
    /// a deadline it measures in real time): a quarter of `--runs`, at least one.
    var costly = false

    /// Runs of this scenario when `--runs` is `runs`: that many on the memory link; twice as many
    /// for a Nordic scenario (there are fewer of them, and the campaign runs at least as many
    /// updates per protocol); half as many, at least one, over UDP, serial or BlueZ, whose real
    /// socket, terminal or bus makes each run cost more, and for a process-death scenario (either
    /// protocol), whose runs start `dfu` processes; a quarter, at least one, for a costly one.
    func runs(given runs: Int) -> Int {
        if costly { return max(1, runs / 4) }
        switch link {
        case .memory: return nordic != nil ? runs * 2 : runs
        case .udp, .serial, .bluez, .process: return max(1, runs / 2)
        }
    }

    /// The baud rate of a serial row's line (the device's model and dfu's port settings).
    var serialBaud: Int { baud ?? ServedDevice.serialBaud }

    /// For `--list`: what is injected (`reboot@random+new address@reset`), or `none`.
    var faultText: String {
        if processDeath == nil, let nordic { return nordic.text }
        let injected = [fault, movesAfterReboot ? "new address@reset" : nil].compactMap { $0 }
        return injected.isEmpty ? "none" : injected.joined(separator: "+")
    }

    /// `SMP` or `Nordic`, for the per-protocol counts.
    var protocolName: String { nordic == nil ? "SMP" : "Nordic" }

    /// The device's options for one run, in the `sim:` syntax `dfu flash --device` takes, so the
    /// run can be replayed with the CLI: `dfu flash IMAGE --key KEY --device '<this>'`.
    func simOptions(seed: UInt64, timeScale: Double, otherKeyPath: String) -> String {
        var items = ["seed=\(seed)"]
        if let fault { items.append("fault=\(fault)") }
        if otherBootloaderKey { items.append("key=\(otherKeyPath)") }
        items.append("timescale=\(timeScale)")
        return "sim:" + items.joined(separator: ",")
    }

    /// Every scenario, in the order they run: the SMP ones, then the Nordic ones, then those that
    /// kill the `dfu` process.
    static let catalogue = smpCatalogue + smpMoreCatalogue + linkCatalogue + bluezCatalogue + nordicCatalogue
        + nordicMoreCatalogue + nordicSerialCatalogue + slowLineCatalogue + processCatalogue

    /// The SMP scenarios, in the order they run. `@random` points lie between 5 % and 95 % of the
    /// image and are drawn from the run's seed (`FaultSpec`); two random faults land apart.
    static let smpCatalogue: [Scenario] = [
        Scenario(name: "none", summary: "no fault: the baseline every other row is compared with",
                 fault: nil, otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "disconnect", summary: "the device drops the link once, after a chunk at a random point (its reply is lost, its upload session kept)",
                 fault: "disconnect@random", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "reboot", summary: "the device resets once mid-transfer at a random point (link gone, upload session lost)",
                 fault: "reboot@random", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "disconnect-twice", summary: "two link drops at two random points",
                 fault: "disconnect@random+disconnect@random", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "disconnect-reboot", summary: "a link drop and a reset at two random points",
                 fault: "disconnect@random+reboot@random", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "stall", summary: "the reply to one chunk at a random point is never sent; the device carries on",
                 fault: "stall@random", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "delay", summary: "the reply to one chunk at a random point is held back 1.5 s (model time); later replies queue behind it",
                 fault: "delay@random:1500ms", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "duplicate", summary: "the reply to one chunk at a random point is sent twice",
                 fault: "duplicate@random", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "busy", summary: "three upload requests in a row at a random point are answered busy (rc 10, MGMT_ERR_EBUSY) and not written; the session stays",
                 fault: "busy@random:3", otherBootloaderKey: false, expectation: .completes),
        Scenario(name: "corrupt", summary: "the reply to one chunk at a random point arrives with its last byte inverted (a hostile notification)",
                 fault: "corrupt@random", otherBootloaderKey: false, expectation: .failsThenRerunCompletes(.deviceRejected)),
        Scenario(name: "wrong-key", summary: "no fault on the link; the device's MCUboot trusts another key, so it refuses the image at the test boot",
                 fault: nil, otherBootloaderKey: true, expectation: .rejectedAtBoot(.postRebootCheckFailed)),
    ]
}
