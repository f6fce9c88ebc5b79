import ArgumentParsing
@testable import dfu_faults
import Testing

/// `dfu-faults`' command line: the options and defaults `make faults` and docs/faults.md rely on,
/// its checks, and its help.
@Suite struct FaultsOptionsTests {
    @Test func withoutOptionsEveryScenarioRunsTwentyTimesFromSeedThousand() throws {
        let options = try FaultsOptions.parse([])
        #expect(options.runs == 20)
        #expect(options.seed == 1000)
        #expect(options.scenarios.isEmpty)
        #expect(options.timeScale == 0.05)
        #expect(options.hangGuardSeconds == 30)
        #expect(options.imagePath == "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin")
        #expect(options.keyPath == "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem")
        #expect(options.otherKeyPath == "firmware-samples/keys/TEST-ONLY-other-ecdsa-p256.pub.pem")
        #expect(options.packagePath == "firmware-samples/nordic/app-signed-3.zip")
        #expect(options.nordicKeyPath == "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.pem")
        #expect(options.nordicOtherKeyPath == "firmware-samples/nordic/keys/TEST-ONLY-nordic-other-p256.pub.pem")
        #expect(!options.json && !options.list)
    }

    @Test func everyOptionIsRead() throws {
        let options = try FaultsOptions.parse([
            "--runs", "50", "--seed", "18446744073709551615", "--scenario", "corrupt", "--scenario", "wrong-key",
            "--time-scale", "1", "--hang-guard", "2.5", "--json", "--image", "a.bin", "--key", "k.pem",
            "--other-key", "o.pem", "--package", "p.zip", "--nordic-key", "n.pem", "--nordic-other-key", "m.pem",
            "--list", "--link", "udp", "--link", "serial",
        ])
        #expect(options.links == ["udp", "serial"])
        #expect(options.runs == 50)
        #expect(options.seed == .max)
        #expect(options.scenarios == ["corrupt", "wrong-key"])
        #expect(options.timeScale == 1)
        #expect(options.hangGuardSeconds == 2.5)
        #expect(options.json && options.list)
        #expect([options.imagePath, options.keyPath, options.otherKeyPath]
            == ["a.bin", "k.pem", "o.pem"])
        #expect([options.packagePath, options.nordicKeyPath, options.nordicOtherKeyPath]
            == ["p.zip", "n.pem", "m.pem"])
    }

    @Test(arguments: [
        (["--runs", "0"], "--runs takes a whole number of at least 1, not 0"),
        (["--time-scale", "0"], "--time-scale takes a number above 0 and at most 1, not 0.0"),
        (["--time-scale", "1.5"], "--time-scale takes a number above 0 and at most 1, not 1.5"),
        (["--time-scale", "inf"], "invalid value 'inf' for --time-scale: expected a number"),
        (["--hang-guard", "0"], "--hang-guard takes seconds above 0 and at most 3600, not 0.0"),
        (["--hang-guard", "3601"], "--hang-guard takes seconds above 0 and at most 3600, not 3601.0"),
        (["--seed", "-1"], "invalid value '-1' for --seed: expected an unsigned integer"),
        (["--scenaro", "corrupt"], "unknown option '--scenaro' (did you mean --scenario?)"),
        (["--link", "ble"], "--link takes memory, udp, serial, bluez or process, not ble"),
    ])
    func badCommandLinesAreUsageErrors(words: [String], message: String) {
        #expect {
            _ = try FaultsOptions.parse(words)
        } throws: { error in
            (error as? UsageError)?.message == message
        }
    }

    @Test func anUnknownScenarioIsAUsageErrorNamingTheKnownOnes() throws {
        let options = try FaultsOptions.parse(["--scenario", "nonesuch"])
        #expect {
            _ = try options.selected(from: Scenario.catalogue)
        } throws: { error in
            guard case .usage(let message) = error as? FaultsError else { return false }
            return message.hasPrefix("unknown scenario nonesuch (known: ")
        }
    }

    @Test func linkChoosesTheScenariosOnThatLinkAndNordicGoesWithMemory() throws {
        let udp = try FaultsOptions.parse(["--link", "udp"]).selected(from: Scenario.catalogue)
        #expect(udp.map(\.name) == ["udp-none", "udp-reboot", "udp-stall", "udp-delay", "udp-duplicate", "udp-busy",
                                     "udp-corrupt", "udp-reorder", "udp-truncate", "udp-reboot-before-mark",
                                     "udp-reboot-at-mark", "udp-reboot-after-mark", "udp-reboot-at-reset", "udp-silent",
                                     "udp-outage"])
        let memory = try FaultsOptions.parse(["--link", "memory"]).selected(from: Scenario.catalogue)
        #expect(memory.count == 30 && memory.allSatisfy { $0.link == .memory })
        #expect(!memory.contains { $0.name == "udp-battery-falls" || $0.name == "serial-battery-falls" })
        let bluez = try FaultsOptions.parse(["--link", "bluez"]).selected(from: Scenario.catalogue)
        #expect(bluez.map(\.name) == (Scenario.smpCatalogue + Scenario.smpMoreCatalogue).map { "bluez-" + $0.name }
            + ["bluez-new-address"] + (Scenario.nordicCatalogue + Scenario.nordicMoreCatalogue).map { "bluez-" + $0.name })
        #expect(bluez.filter { $0.nordic != nil }.count == 12 && bluez.allSatisfy { $0.runs(given: 20) == 10 })
        #expect(!bluez.contains { $0.name == "bluez-silent" || $0.name == "bluez-outage" })
        #expect(bluez.filter(\.movesAfterReboot).map(\.name) == ["bluez-new-address"])
        let both = try FaultsOptions.parse(["--link", "serial", "--scenario", "serial-silent", "--scenario", "reboot"])
            .selected(from: Scenario.catalogue)
        #expect(both.map(\.name) == ["serial-silent"])
        let process = try FaultsOptions.parse(["--link", "process"]).selected(from: Scenario.catalogue)
        #expect(process.map(\.name) == ["kill-rerun", "kill-resume", "batch-kill", "batch-kill-twice", "kill-resume-twice",
                                         "kill-rerun-twice", "kill-at-reboot", "kill-then-reboot", "kill-in-outage",
                                         "serial-kill-rerun", "serial-kill-resume", "serial-usb-kill-at-drop", "bluez-kill-rerun",
                                         "bluez-kill-resume", "bluez-kill-at-drop", "nordic-kill-rerun",
                                         "nordic-kill-resume", "nordic-kill-resume-twice", "nordic-kill-at-activation",
                                         "nordic-kill-at-power-cut", "bluez-nordic-kill-rerun",
                                         "bluez-nordic-kill-resume", "bluez-nordic-elsewhere-kill-rerun",
                                         "bluez-nordic-elsewhere-kill-resume", "bluez-nordic-kill-at-power-cut", "nordic-batch-kill",
                                         "nordic-batch-kill-twice"])
        #expect(process.allSatisfy { $0.processDeath != nil && $0.runs(given: 1) == 1 })
        #expect(process.filter { $0.runs(given: 20) != 10 }.map(\.name) == ["kill-then-reboot"], "costly: a quarter")
        #expect(process.first { $0.costly }.map { [$0.runs(given: 20), $0.runs(given: 4)] } == [5, 1])
        #expect(process.filter { $0.nordic != nil }.map(\.protocolName) == Array(repeating: "Nordic", count: 12))
    }

    @Test func serialChoosesTheSMPAndTheNordicScenariosOnTheLine() throws {
        let serial = try FaultsOptions.parse(["--link", "serial"]).selected(from: Scenario.catalogue)
        let nordic = serial.filter { $0.nordic != nil }
        #expect(nordic.map(\.name) == ["serial-nordic-none", "serial-nordic-power-cycle", "serial-nordic-usb-power-cycle",
                                        "serial-nordic-usb-disconnect",
                                        "serial-nordic-drop-packets", "serial-nordic-corrupt", "serial-nordic-truncate",
                                        "serial-nordic-stall", "serial-nordic-duplicate",
                                        "serial-nordic-power-cycle-at-activation",
                                        "serial-nordic-usb-power-cycle-at-activation", "serial-nordic-wrong-key",
                                        "serial-nordic-none-115200", "serial-nordic-drop-packets-115200",
                                        "serial-nordic-stall-115200"])
        #expect(serial.count == 18 + nordic.count && serial.allSatisfy { $0.link == .serial && $0.runs(given: 20) == 10 })
        #expect(serial.filter { $0.baud != nil }.map(\.name) == ["serial-none-115200", "serial-stall-115200", "serial-silent-115200"]
            + nordic.suffix(3).map(\.name))
        #expect(serial.allSatisfy { $0.serialBaud == ($0.name.hasSuffix("-115200") ? 115_200 : 1_000_000) })
        #expect(nordic.filter { $0.nordic?.usb == true }.map(\.name).allSatisfy { $0.hasPrefix("serial-nordic-usb-") })
        #expect(nordic.allSatisfy { $0.protocolName == "Nordic" && $0.runs(given: 4) == 2 })
    }

    @Test func theDFUBinaryIsTheOneBesideUnlessGiven() throws {
        #expect(try FaultsOptions.parse([]).dfuPath == nil)
        #expect(try FaultsOptions.parse(["--dfu", "/opt/dfu"]).dfuPath == "/opt/dfu")
        #expect {
            _ = try ProcessInputs.locateDFU("/nonexistent/dfu")
        } throws: { error in
            guard case .setup(let message) = error as? FaultsError else { return false }
            return message == "--dfu /nonexistent/dfu is no executable file"
        }
    }

    @Test func theDefaultRunsAtLeastTwoHundredPerProtocol() throws {
        let runs = try FaultsOptions.parse([]).runs
        let smp = Scenario.catalogue.filter { $0.nordic == nil }.map { $0.runs(given: runs) }.reduce(0, +)
        let nordic = Scenario.catalogue.filter { $0.nordic != nil }.map { $0.runs(given: runs) }.reduce(0, +)
        #expect(smp >= 200 && nordic >= 200)
        #expect(Scenario.catalogue.allSatisfy { $0.runs(given: 1) >= 1 })
    }

    @Test func aBadCommandLineExitsTwoBeforeAnyRun() async {
        #expect(await FaultsMain.run(["--time-scale", "0"]) == 2)
        #expect(await FaultsMain.run(["--bogus"]) == 2)
    }

    @Test func helpListsEveryOptionWithItsDefaultWithinEightyColumns() throws {
        let help = try FaultsOptions.help(commandPath: "dfu-faults")
        #expect(help.contains("USAGE: dfu-faults "))
        for option in ["--runs <N>", "--seed <N>", "--scenario <NAME>", "--time-scale <S>", "--hang-guard <SECONDS>",
                       "--json", "--image <PATH>", "--key <PATH>", "--other-key <PATH>", "--package <PATH>",
                       "--nordic-key <PATH>", "--nordic-other-key <PATH>", "--link <LINK>", "--dfu <PATH>", "--list", "-h, --help"] {
            #expect(help.contains("  " + option), "no \(option)")
        }
        #expect(help.contains("(default: 20)"))
        #expect(help.contains("Exit status:\n  0  "))
        for line in help.split(separator: "\n") where !line.contains("firmware-samples/") {
            #expect(line.count <= 80, "\(line)")
        }
    }
}
