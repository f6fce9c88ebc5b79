import ArgumentParsing

/// The command line of `dfu-faults`: options declared with their help and defaults (ArgumentParsing
/// builds `--help` from them); `validate()` checks them before any run starts.
struct FaultsOptions: ParsableCommand {
    static let name = "dfu-faults"
    static let abstract = "Whole updates of the virtual device under injected faults."
    static let discussion = """
        Runs whole test-confirm updates (UpdateEngine, as `dfu flash` runs them) against the \
        in-process virtual device (SMP/MCUboot) or virtual nRF52 (Nordic Secure DFU, the nordic-* \
        scenarios) with one injected fault scenario each, or runs the dfu binary against it and \
        kills it (--link process), and reports per scenario how many runs \
        completed (new image active and confirmed on the device), how many failed as the scenario \
        expects, how many ended any other way, and what the faults cost: image bytes sent beyond \
        the image size, resumes, and the update's duration in model time.

        Exit status:
          0  every run ended as its scenario expects and kept every invariant
          1  a run did not (each is listed with the seed and device options that
             reproduce it)
          2  a bad command line
        """

    @Option(valueName: "N", help: "Runs per scenario.")
    var runs = 20

    /// Run `r` (from 0) of every scenario uses device seed `seed + r`, so the published table is
    /// reproducible and any one run can be replayed with `dfu flash --device sim:seed=…`.
    @Option(valueName: "N", help: "Run r of each scenario uses device seed N+r.")
    var seed: UInt64 = 1000

    @Option(name: "scenario", valueName: "NAME", help: "Run only this scenario (see --list).")
    var scenarios: [String] = []

    /// The scenarios' links: SMP runs on all four, Nordic in memory (`nordic-*`), over BlueZ
    /// (`bluez-nordic-*`) and over serial (`serial-nordic-*`), not over UDP; `process`: the
    /// scenarios that kill the `dfu` binary (either protocol).
    @Option(name: "link", valueName: "LINK", help: "Run only the scenarios on this link: memory, udp, serial, bluez (Nordic runs in memory, over BlueZ and over serial), or process (dfu killed, either protocol).")
    var links: [String] = []

    /// Real seconds per model second of the link and device model (`LinkClock.timeScale`); the
    /// engine's deadlines run on the same model clock, so they scale with it. 0.05 keeps the whole
    /// default campaign near 80 s on 2 cores while a 7.5 ms connection interval is still 375 µs of
    /// real time, which the host's timers keep well enough; at 0.03 the model fell ~5 % behind.
    @Option(valueName: "S", help: """
        Real seconds per model second, 0 < S <= 1 (0.05: 20x faster than real time; the engine's \
        deadlines stay in model time).
        """)
    var timeScale = 0.05

    @Option(name: "hang-guard", valueName: "SECONDS", help: "Real time one engine run may take before it counts as hung.")
    var hangGuardSeconds = 30.0

    @Flag(help: "One JSON document on stdout (progress still goes to stderr).")
    var json = false

    @Option(name: "image", valueName: "PATH", help: "The image to flash.")
    var imagePath = "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin"

    @Option(name: "key", valueName: "PATH", help: "The key that signed it.")
    var keyPath = "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"

    /// Not the key that signed the image.
    @Option(name: "other-key", valueName: "PATH", help: "The device's bootloader key in wrong-key.")
    var otherKeyPath = "firmware-samples/keys/TEST-ONLY-other-ecdsa-p256.pub.pem"

    @Option(name: "package", valueName: "PATH", help: "The Nordic scenarios' package.")
    var packagePath = "firmware-samples/nordic/app-signed-3.zip"

    @Option(name: "nordic-key", valueName: "PATH", help: "The key that signed the package.")
    var nordicKeyPath = "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.pem"

    @Option(name: "nordic-other-key", valueName: "PATH", help: "The bootloader key in nordic-wrong-key.")
    var nordicOtherKeyPath = "firmware-samples/nordic/keys/TEST-ONLY-nordic-other-p256.pub.pem"

    /// The process-death scenarios run this binary; by default the `dfu` beside `dfu-faults`.
    @Option(name: "dfu", valueName: "PATH", help: "The dfu binary the process-death scenarios run (default: the dfu beside dfu-faults).")
    var dfuPath: String?

    @Flag(help: "Print the scenarios and exit.")
    var list = false

    func validate() throws(UsageError) {
        if runs < 1 { throw UsageError("--runs takes a whole number of at least 1, not \(runs)") }
        // 0 (unpaced) is refused: its sleeps return at once, so the engine's model-time deadlines
        // would all pass immediately (see EngineClock).
        if !(timeScale > 0 && timeScale <= 1) {
            throw UsageError("--time-scale takes a number above 0 and at most 1, not \(timeScale)")
        }
        if let unknown = links.first(where: { FaultLink(rawValue: $0) == nil }) {
            throw UsageError("--link takes memory, udp, serial, bluez or process, not \(unknown)")
        }
        if !(hangGuardSeconds > 0 && hangGuardSeconds <= 3600) {
            throw UsageError("--hang-guard takes seconds above 0 and at most 3600, not \(hangGuardSeconds)")
        }
    }

    /// The scenarios to run, in catalogue order: those named (all when none is), on the links
    /// chosen (all when none is); an unknown name is an error naming the known ones.
    func selected(from catalogue: [Scenario]) throws(FaultsError) -> [Scenario] {
        let known = Set(catalogue.map(\.name))
        if let unknown = scenarios.first(where: { !known.contains($0) }) {
            throw .usage("unknown scenario \(unknown) (known: \(catalogue.map(\.name).joined(separator: ", ")))")
        }
        let chosenLinks = Set(links.compactMap(FaultLink.init(rawValue:)))
        let chosen = catalogue.filter { scenario in
            (scenarios.isEmpty || scenarios.contains(scenario.name)) && (chosenLinks.isEmpty || chosenLinks.contains(scenario.link))
        }
        if chosen.isEmpty { throw .usage("no scenario matches --scenario and --link together") }
        return chosen
    }
}
