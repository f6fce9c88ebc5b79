/// The command line of `dfu-faults`. Options are stored properties with their defaults; `parse`
/// checks everything before any run starts.
struct FaultsOptions: Sendable {
    /// Runs per scenario.
    var runs = 20
    /// Run `r` (from 0) of every scenario uses device seed `seed + r`, so the published table is
    /// reproducible and any one run can be replayed with `dfu flash --device sim:seed=…`.
    var seed: UInt64 = 1000
    /// Scenarios to run, by name; empty = all.
    var scenarios: [String] = []
    /// Real seconds per model second of the link and device model (`LinkClock.timeScale`); the
    /// engine's deadlines run on the same model clock, so they scale with it. 0.05 keeps the whole
    /// default campaign near 80 s on 2 cores while a 7.5 ms connection interval is still 375 µs of
    /// real time, which the host's timers keep well enough; at 0.03 the model fell ~5 % behind.
    var timeScale = 0.05
    /// Real seconds one engine run may take before it counts as hung and is abandoned.
    var hangGuardSeconds = 30.0
    var json = false
    var imagePath = "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin"
    /// The key the engine checks the image with (the one that signed it).
    var keyPath = "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"
    /// The bootloader key of the device in the `wrong-key` scenario: not the one that signed the image.
    var otherKeyPath = "firmware-samples/keys/TEST-ONLY-other-ecdsa-p256.pub.pem"
    /// The Nordic scenarios' package, its signing key, and the key of the `nordic-wrong-key` bootloader.
    var packagePath = "firmware-samples/nordic/app-signed-3.zip"
    var nordicKeyPath = "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.pem"
    var nordicOtherKeyPath = "firmware-samples/nordic/keys/TEST-ONLY-nordic-other-p256.pub.pem"
    var list = false
    var help = false

    static let usage = """
        USAGE: dfu-faults [--runs N] [--seed N] [--scenario NAME]... [--time-scale S] [--hang-guard SECONDS]
                          [--json] [--image PATH] [--key PATH] [--other-key PATH]
                          [--package PATH] [--nordic-key PATH] [--nordic-other-key PATH]
               dfu-faults --list | --help

        Runs whole test-confirm updates (UpdateEngine, as `dfu flash` runs them) against the in-process
        virtual device (SMP/MCUboot) or virtual nRF52 (Nordic Secure DFU, the nordic-* scenarios)
        with one injected fault scenario each, and reports per scenario how many runs
        completed (new image active and confirmed on the device), how many failed as the scenario
        expects, how many ended any other way, and what the faults cost: image bytes sent beyond the
        image size, resumes, and the update's duration in model time.

        OPTIONS:
          --runs N               runs per scenario (default 20)
          --seed N               run r of each scenario uses device seed N+r (default 1000)
          --scenario NAME        run only this scenario (repeatable; see --list)
          --time-scale S         real seconds per model second, 0 < S <= 1 (default 0.05: 20x faster
                                 than real time; the engine's deadlines stay in model time)
          --hang-guard SECONDS   real time one engine run may take before it counts as hung (default 30)
          --json                 one JSON document on stdout (progress still goes to stderr)
          --image PATH           the image to flash (default firmware-samples/images/blinky-…-1.1.0…)
          --key PATH             the key that signed it (default TEST-ONLY-ecdsa-p256.pub.pem)
          --other-key PATH       the device's bootloader key in wrong-key (default TEST-ONLY-other-…)
          --package PATH         the Nordic scenarios' package (default firmware-samples/nordic/app-signed-3.zip)
          --nordic-key PATH      the key that signed it (default TEST-ONLY-nordic-p256.pub.pem)
          --nordic-other-key PATH
                                 the bootloader key in nordic-wrong-key (default TEST-ONLY-nordic-other-…)
          --list                 print the scenarios and exit
          -h, --help             print this help and exit

        Exit status: 0 when every run ended as its scenario expects, 1 when any run did not (each is
        listed with the seed and device options that reproduce it), 2 for a bad command line.
        """

    static func parse(_ arguments: [String]) throws(FaultsError) -> FaultsOptions {
        var options = FaultsOptions()
        var rest = arguments[...]
        func value(for flag: String) throws(FaultsError) -> String {
            guard let value = rest.popFirst(), !value.hasPrefix("--") else { throw .usage("\(flag) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--runs":
                let text = try value(for: argument)
                guard let runs = Int(text), runs >= 1 else { throw .usage("--runs takes a whole number of at least 1, not \(text)") }
                options.runs = runs
            case "--seed":
                let text = try value(for: argument)
                guard let seed = UInt64(text) else { throw .usage("--seed takes an unsigned whole number, not \(text)") }
                options.seed = seed
            case "--scenario":
                options.scenarios.append(try value(for: argument))
            case "--time-scale":
                let text = try value(for: argument)
                // 0 (unpaced) is refused: its sleeps return at once, so the engine's model-time
                // deadlines would all pass immediately (see EngineClock).
                guard let scale = Double(text), scale.isFinite, scale > 0, scale <= 1 else {
                    throw .usage("--time-scale takes a number above 0 and at most 1, not \(text)")
                }
                options.timeScale = scale
            case "--hang-guard":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                    throw .usage("--hang-guard takes seconds above 0 and at most 3600, not \(text)")
                }
                options.hangGuardSeconds = seconds
            case "--json":
                options.json = true
            case "--image":
                options.imagePath = try value(for: argument)
            case "--key":
                options.keyPath = try value(for: argument)
            case "--other-key":
                options.otherKeyPath = try value(for: argument)
            case "--package":
                options.packagePath = try value(for: argument)
            case "--nordic-key":
                options.nordicKeyPath = try value(for: argument)
            case "--nordic-other-key":
                options.nordicOtherKeyPath = try value(for: argument)
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

    /// The scenarios to run, in catalogue order; an unknown name is an error naming the known ones.
    func selected(from catalogue: [Scenario]) throws(FaultsError) -> [Scenario] {
        guard !scenarios.isEmpty else { return catalogue }
        let known = Set(catalogue.map(\.name))
        if let unknown = scenarios.first(where: { !known.contains($0) }) {
            throw .usage("unknown scenario \(unknown) (known: \(catalogue.map(\.name).joined(separator: ", ")))")
        }
        return catalogue.filter { scenarios.contains($0.name) }
    }
}
