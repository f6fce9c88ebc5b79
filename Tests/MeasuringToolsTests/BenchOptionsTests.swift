import ArgumentParsing
@testable import dfu_bench
import Testing

/// `dfu-bench`'s command line: the options and defaults `make bench` and docs/performance.md rely
/// on, its checks, and its help.
@Suite struct BenchOptionsTests {
    @Test func withoutOptionsEveryPartRunsThreeTimesOnTheBenchImage() throws {
        let options = try BenchOptions.parse([])
        #expect(options.runs == 3)
        #expect(options.profiles.isEmpty)
        #expect(options.imagePath == "firmware-samples/images/bench-512k-ecdsa-p256-1.1.0.signed.bin")
        #expect(options.previousImagePath == "firmware-samples/images/blinky-ecdsa-p256-1.0.0.signed.bin")
        #expect(options.packagePath == "firmware-samples/nordic/app-signed-3.zip")
        #expect(options.batchDevices == 100)
        #expect(options.batchParallel == 8)
        #expect(options.dfuPath == nil)
        #expect(!options.json && !options.wholeUpdate && !options.list)
        #expect(options.runsFleet && options.runsBatch && options.runsSerial)
        #expect(options.serialRuns.map(\.baud) == [115_200, 1_000_000])
        #expect(options.smpmgrPath == nil)
        #expect(BenchOptions.serialBatchDevices == 8 && BenchOptions.serialBatchBaud == 115_200)
        #expect(options.serialRuns.map(\.imagePath) == ["firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin",
                                                       "firmware-samples/images/bench-512k-ecdsa-p256-1.1.0.signed.bin"])
    }

    @Test func everyOptionIsRead() throws {
        let options = try BenchOptions.parse([
            "--runs", "5", "--profile", "1M-mtu247-30ms", "--profile", "nordic-prn0", "--json", "--whole-update",
            "--image", "a.bin", "--previous-image", "b.bin", "--package", "c.zip", "--fleet", "--batch",
            "--batch-devices", "7", "--batch-parallel", "2", "--dfu", "/opt/dfu", "--list", "--smpmgr", "/opt/smpmgr",
        ])
        #expect(options.smpmgrPath == "/opt/smpmgr")
        #expect(options.runs == 5)
        #expect(options.profiles == ["1M-mtu247-30ms", "nordic-prn0"])
        #expect(options.json && options.wholeUpdate && options.fleet && options.batch && options.list)
        #expect(options.imagePath == "a.bin")
        #expect(options.previousImagePath == "b.bin")
        #expect(options.packagePath == "c.zip")
        #expect(options.batchDevices == 7)
        #expect(options.batchParallel == 2)
        #expect(options.dfuPath == "/opt/dfu")
    }

    @Test func namingAPartRunsOnlyThatPart() throws {
        let fleet = try BenchOptions.parse(["--fleet"])
        #expect(fleet.runsFleet && !fleet.runsBatch && !fleet.runsSerial)
        let profile = try BenchOptions.parse(["--profile", "x"])
        #expect(!profile.runsFleet && !profile.runsBatch && !profile.runsSerial)
        let serial = try BenchOptions.parse(["--serial", "--serial-image", "s.bin"])
        #expect(serial.runsSerial && !serial.runsFleet && !serial.runsBatch)
        #expect(serial.serialRuns.first?.imagePath == "s.bin")
    }

    @Test(arguments: [
        (["--runs", "0"], "--runs takes a whole number of at least 1, not 0"),
        (["--batch-devices", "0"], "--batch-devices takes a whole number of at least 1, not 0"),
        (["--batch-parallel", "-1"], "--batch-parallel takes a whole number of at least 1, not -1"),
        (["--runs", "three"], "invalid value 'three' for --runs: expected an integer"),
        (["--rusn", "3"], "unknown option '--rusn' (did you mean --runs?)"),
        (["--profile"], "--profile needs a value <NAME>"),
        (["extra"], "unexpected argument 'extra'"),
    ])
    func badCommandLinesAreUsageErrors(words: [String], message: String) {
        #expect {
            _ = try BenchOptions.parse(words)
        } throws: { error in
            (error as? UsageError)?.message == message
        }
    }

    @Test func aBadCommandLineExitsTwoBeforeAnyRun() async {
        #expect(await BenchMain.run(["--runs", "0"]) == 2)
        #expect(await BenchMain.run(["--bogus"]) == 2)
    }

    @Test func helpListsEveryOptionWithItsDefaultWithinEightyColumns() throws {
        let help = try BenchOptions.help(commandPath: "dfu-bench")
        #expect(help.hasPrefix("OVERVIEW: "))
        #expect(help.contains("USAGE: dfu-bench "))
        for option in ["--runs <N>", "--profile <NAME>", "--json", "--whole-update", "--image <PATH>",
                       "--previous-image <PATH>", "--package <PATH>", "--fleet", "--batch", "--batch-devices <N>",
                       "--batch-parallel <N>", "--serial", "--serial-image <PATH>", "--smpmgr <PATH>", "--dfu <PATH>", "--list", "-h, --help"] {
            #expect(help.contains("  " + option), "no \(option)")
        }
        #expect(help.contains("(default: 100)"))
        #expect(help.contains("(can be repeated)"))
        #expect(help.contains("Exit status:\n  0  "))
        for line in help.split(separator: "\n") where !line.contains("firmware-samples/") {
            #expect(line.count <= 80, "\(line)")
        }
    }
}
