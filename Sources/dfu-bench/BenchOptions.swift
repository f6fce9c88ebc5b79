import ArgumentParsing

/// The command line of `dfu-bench`: options declared with their help and defaults (ArgumentParsing
/// builds `--help` from them); `validate()` checks them before any run starts.
struct BenchOptions: ParsableCommand {
    static let name = "dfu-bench"
    static let abstract = "Measure upload goodput against the modelled ceiling."
    static let discussion = """
        Uploads the 512 KiB bench image to the virtual device over the real-time memory link, once \
        per link profile and run, and prints goodput against the modelled ceiling (radio and \
        flash); then sends a Nordic DFU package to the virtual nRF52's bootloader on the nordic-* \
        profiles; then the serial part: over a pseudo-terminal paced at the baud rate, the 49.8 kB \
        sample at 115200 baud and the bench image at 1000000 (long enough that filling and \
        draining the window does not count), goodput against the line's ceiling after the console framing (target \
        90 %, reported, not an exit status); 8 such ports at 115200 baud flashed at once by the built \
        dfu (`dfu batch --parallel 8 --mode upload-only`), every device ok, each one's goodput and the \
        aggregate against 8 lines' ceiling; and smpmgr uploading the same images to the same sim, \
        side by side with dfu, when it is installed (--smpmgr; else a row says it is not). Then the fleet part: 8 devices updated at once through one modelled adapter, \
        their aggregate goodput against the adapter's capacity (target 80 %); and the batch part: \
        the built dfu runs `dfu batch` over 100 unpaced sim devices, every device's report line \
        counted. Without --profile, --fleet, --batch or --serial every part runs; with any of them, only the \
        parts named.

        Exit status:
          0  every run completed with the image in slot 1
          1  a run failed, the fleet missed its target, or the batch lost a report or a
             device failed, or a device of the serial batch failed
          2  a bad command line
        """

    @Option(valueName: "N", help: "Runs per profile; the table has medians.")
    var runs = 3

    @Option(name: "profile", valueName: "NAME", help: "Run only this profile (see --list).")
    var profiles: [String] = []

    @Flag(help: "One JSON document on stdout (progress still goes to stderr).")
    var json = false

    @Flag(help: """
        Also time a whole update per run (UpdateEngine, test-confirm: erase, upload, reset, MCUboot \
        swap, reconnect, confirm); adds ≈ 70 s a run.
        """)
    var wholeUpdate = false

    @Option(name: "image", valueName: "PATH", help: "The image whose upload is measured.")
    var imagePath = "firmware-samples/images/bench-512k-ecdsa-p256-1.1.0.signed.bin"

    // Slot 1 is not empty on a device updated before, so the device erases first, as here.
    @Option(name: "previous-image", valueName: "PATH", help: "Put into slot 1 first, so the device erases.")
    var previousImagePath = "firmware-samples/images/blinky-ecdsa-p256-1.0.0.signed.bin"

    @Option(name: "package", valueName: "PATH", help: "The Nordic DFU package the nordic-* profiles send.")
    var packagePath = "firmware-samples/nordic/app-signed-3.zip"

    @Flag(help: "Run the fleet part (once; ≈ 40 s).")
    var fleet = false

    @Flag(help: "Run the batch part (once).")
    var batch = false

    @Flag(help: "Run the serial part: uploads over a pseudo-terminal paced at 115200 and 1000000 baud.")
    var serial = false

    @Option(name: "serial-image", valueName: "PATH", help: "The image the serial part uploads at 115200 baud (at 1000000: --image).")
    var serialImagePath = "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin"

    @Option(name: "smpmgr", valueName: "PATH",
            help: "The smpmgr the serial part times beside dfu (default: $SMPMGR, PATH, .venv/bin, /tmp/smpvenv/bin; none: a row says so).")
    var smpmgrPath: String?

    @Option(valueName: "N", help: "Devices in the batch plan.")
    var batchDevices = 100

    @Option(valueName: "N", help: "The batch part's dfu batch --parallel.")
    var batchParallel = 8

    @Option(name: "dfu", valueName: "PATH", help: "The dfu the batch part runs (default: the one next to dfu-bench).")
    var dfuPath: String?

    @Flag(help: "Print the profiles and exit.")
    var list = false

    func validate() throws(UsageError) {
        for (name, value) in [("--runs", runs), ("--batch-devices", batchDevices), ("--batch-parallel", batchParallel)]
        where value < 1 {
            throw UsageError("\(name) takes a whole number of at least 1, not \(value)")
        }
    }

    /// Nothing was picked: every part runs.
    private var everything: Bool { profiles.isEmpty && !fleet && !batch && !serial }

    var runsFleet: Bool { fleet || everything }

    var runsBatch: Bool { batch || everything }

    var runsSerial: Bool { serial || everything }

    /// The serial part's runs: a UART's usual rate with the small sample (a minute for the bench
    /// image), and a fast USB-serial bridge's with the bench image.
    var serialRuns: [(baud: Int, imagePath: String)] { [(115_200, serialImagePath), (1_000_000, imagePath)] }

    /// The serial batch: eight ports, as a fixture's USB hub has, at a UART's usual rate, where
    /// the line and not this machine's CPU is the limit for all eight at once.
    static let serialBatchDevices = 8
    static let serialBatchBaud = 115_200

    /// The profiles to run, SMP and Nordic, in catalogue order; an unknown name is an error naming
    /// the known ones.
    func selected(from catalogue: [BenchProfile], nordic: [NordicBenchProfile])
        throws(BenchError) -> (smp: [BenchProfile], nordic: [NordicBenchProfile]) {
        guard !profiles.isEmpty else { return everything ? (catalogue, nordic) : ([], []) }
        let names = catalogue.map(\.name) + nordic.map(\.name)
        if let unknown = profiles.first(where: { !names.contains($0) }) {
            throw .usage("unknown profile \(unknown) (known: \(names.joined(separator: ", ")))")
        }
        return (catalogue.filter { profiles.contains($0.name) }, nordic.filter { profiles.contains($0.name) })
    }
}
