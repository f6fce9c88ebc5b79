/// The command line of `dfu-bench`. Options are stored properties with their defaults; `parse`
/// checks everything before any run starts.
struct BenchOptions: Sendable {
    /// Runs per profile; the table shows the medians.
    var runs = 3
    /// Profiles to run, by name; empty = all.
    var profiles: [String] = []
    /// One JSON document on stdout instead of the table.
    var json = false
    /// The image whose transfer is measured.
    var imagePath = "firmware-samples/images/bench-512k-ecdsa-p256-1.1.0.signed.bin"
    /// Uploaded first so slot 1 is not empty, as on a device updated before: the device then erases.
    var previousImagePath = "firmware-samples/images/blinky-ecdsa-p256-1.0.0.signed.bin"
    /// The Nordic DFU package the Nordic profiles send.
    var packagePath = "firmware-samples/nordic/app-signed-3.zip"
    /// Also run one whole update (`UpdateEngine`, test-confirm) per run and report its wall time.
    var wholeUpdate = false
    /// Run the fleet part (`FleetRun`); with `--batch` or `--profile`, only the parts named run.
    var fleet = false
    /// Run the batch part (`BatchRun`).
    var batch = false
    var batchDevices = 100
    var batchParallel = 8
    /// The dfu the batch part runs; nil = the one next to dfu-bench.
    var dfuPath: String?
    var list = false
    var help = false

    static let usage = """
        USAGE: dfu-bench [--runs N] [--profile NAME]... [--fleet] [--batch] [--json] [--whole-update]
                         [--image PATH] [--previous-image PATH] [--package PATH]
                         [--batch-devices N] [--batch-parallel N] [--dfu PATH]
               dfu-bench --list | --help

        Uploads the 512 KiB bench image to the virtual device over the real-time memory link, once per
        link profile and run, and prints goodput against the modelled ceiling (radio and flash); then
        sends a Nordic DFU package to the virtual nRF52's bootloader on the nordic-* profiles. Then the
        fleet part: 8 devices updated at once through one modelled adapter, their aggregate goodput
        against the adapter's capacity (target 80 %); and the batch part: the built dfu runs
        `dfu batch` over 100 unpaced sim devices, every device's report line counted. Without
        --profile, --fleet or --batch every part runs; with any of them, only the parts named.

        OPTIONS:
          --runs N               runs per profile; the table shows medians (default 3)
          --profile NAME         run only this profile (repeatable; see --list)
          --json                 one JSON document on stdout (progress still goes to stderr)
          --whole-update         also time a whole update per run (UpdateEngine, test-confirm: erase,
                                 upload, reset, MCUboot swap, reconnect, confirm); adds ≈ 70 s a run
          --image PATH           the image to upload (default firmware-samples/images/bench-512k-…)
          --previous-image PATH  put into slot 1 first so the device erases (default blinky 1.0.0)
          --package PATH         the Nordic DFU package (default firmware-samples/nordic/app-signed-3.zip)
          --fleet                run the fleet part (once; ≈ 40 s)
          --batch                run the batch part (once)
          --batch-devices N      devices in the batch plan (default 100)
          --batch-parallel N     dfu batch --parallel (default 8)
          --dfu PATH             the dfu the batch part runs (default: the one next to dfu-bench)
          --list                 print the profiles and exit
          -h, --help             print this help and exit

        Exit status: 0 when every run completed with the image in slot 1, 1 when a run failed, the
        fleet missed its target, or the batch lost a report or a device failed; 2 for a bad command line.
        """

    static func parse(_ arguments: [String]) throws(BenchError) -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        func value(for flag: String) throws(BenchError) -> String {
            guard let value = rest.popFirst(), !value.hasPrefix("--") else { throw .usage("\(flag) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--runs":
                let text = try value(for: argument)
                guard let runs = Int(text), runs >= 1 else { throw .usage("--runs takes a whole number of at least 1, not \(text)") }
                options.runs = runs
            case "--profile":
                options.profiles.append(try value(for: argument))
            case "--json":
                options.json = true
            case "--whole-update":
                options.wholeUpdate = true
            case "--image":
                options.imagePath = try value(for: argument)
            case "--previous-image":
                options.previousImagePath = try value(for: argument)
            case "--package":
                options.packagePath = try value(for: argument)
            case "--fleet":
                options.fleet = true
            case "--batch":
                options.batch = true
            case "--batch-devices", "--batch-parallel":
                let text = try value(for: argument)
                guard let count = Int(text), count >= 1 else { throw .usage("\(argument) takes a whole number of at least 1, not \(text)") }
                if argument == "--batch-devices" { options.batchDevices = count } else { options.batchParallel = count }
            case "--dfu":
                options.dfuPath = try value(for: argument)
            case "--list":
                options.list = true
            case "-h", "--help":
                options.help = true
            default:
                throw .usage("unknown argument \(argument)")
            }
        }
        return options
    }

    /// Nothing was picked: every part runs.
    private var everything: Bool { profiles.isEmpty && !fleet && !batch }

    var runsFleet: Bool { fleet || everything }

    var runsBatch: Bool { batch || everything }

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
