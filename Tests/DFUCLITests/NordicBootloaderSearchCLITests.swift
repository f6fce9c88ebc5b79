import Foundation
import Testing

/// Where dfu finds an nRF5 bootloader after buttonless entry (issue 18, item 2): it names the
/// bootloader first (buttonless set-name, `Dfu` and five digits unless `--bootloader-name`), then
/// takes whichever shows up first of the address + 1, the application's address and that name.
/// A bootloader that could not be named is found by the default name only as the one in range.
@Suite(.serialized, .endToEnd) struct NordicBootloaderSearchCLITests {
    static func flash(sim: String, _ extra: [String] = []) throws -> DFURun {
        try NordicFlashCLITests.flash(["--expect-version", "0.0.3", "--verbose"] + extra, sim: sim)
    }

    static func bootloaderName(in output: String) -> String? {
        guard let range = output.range(of: #"the bootloader will advertise as Dfu[0-9]{5}\b"#, options: .regularExpression) else {
            return nil
        }
        return String(output[range].suffix(8))
    }

    @Test func aBootloaderUnderAnAddressOfItsOwnIsFoundByTheNameDfuGaveIt() throws {
        let run = try Self.flash(sim: "bl_address=random")
        #expect(run.exitCode == 0, "\(run.output)")
        let name = try #require(Self.bootloaderName(in: run.stderr), "\(run.stderr)")
        #expect(run.stderr.contains("the name \(name)"), "\(run.stderr)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: application fw_version 3 activated on ") == true, "\(run.stdout)")
    }

    @Test func eachRunGivesTheBootloaderAnotherName() throws {
        let names = try (0 ..< 2).map { _ in Self.bootloaderName(in: try Self.flash(sim: "").stderr) }
        #expect(names.allSatisfy { $0 != nil })
        #expect(names[0] != names[1], "two runs, two names: \(names)")
    }

    @Test func theNameGivenWithBootloaderNameIsUsed() throws {
        let run = try Self.flash(sim: "bl_address=random", ["--bootloader-name", "line4-unit"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("the bootloader will advertise as line4-unit"), "\(run.stderr)")
    }

    /// SDK 13 answers set-name "op code not supported": the default name is the last resort, taken
    /// when nothing answered at the addresses for a while and no other DfuTarg is in range.
    @Test func anUnnamedBootloaderElsewhereIsFoundAsTheOnlyDfuTarg() throws {
        let run = try Self.flash(sim: "bl_address=random,set_name=off")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("the only DfuTarg"), "\(run.stderr)")
        #expect(!run.stderr.contains("warning: "), "no --bootloader-name was given: nothing to warn about\n\(run.stderr)")
    }

    @Test func twoUnnamedBootloadersInRangeAreAnErrorNotAGuess() throws {
        let run = try Self.flash(sim: "bl_address=random,set_name=off,bootloaders_nearby=1")
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(run.stderr.contains("2 bootloaders in range advertise as DfuTarg"), "\(run.stderr)")
        #expect(run.stderr.contains("will not guess"), "\(run.stderr)")
        #expect(!run.stdout.contains("uploading:"), "nothing is sent to either")
    }

    /// Other DfuTargs in range do not matter when the bootloader answers at the address + 1.
    @Test func otherBootloadersInRangeDoNotHideOneAtTheAddressPlusOne() throws {
        let run = try Self.flash(sim: "set_name=off,bootloaders_nearby=2")
        #expect(run.exitCode == 0, "\(run.output)")
    }

    /// Firmware without the asynchronous SVCI resets instead of answering set-name: dfu reaches
    /// the application again and enters DFU without a name, with a warning.
    @Test func anApplicationThatResetsOnSetNameIsEnteredWithoutAName() throws {
        let run = try Self.flash(sim: "bl_address=random,set_name=resets")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("restarted when asked to name its bootloader"), "\(run.stderr)")
    }

    @Test func aGivenNameTheApplicationCannotSetIsWarnedAbout() throws {
        let run = try Self.flash(sim: "set_name=off", ["--bootloader-name", "line4-unit"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("cannot rename its bootloader"), "\(run.stderr)")
    }

    /// The name is an event (JSON) and is kept in the journal, where the next run for the device
    /// looks for it (`dfu resume`, or the same command: the bootloader may wait under it alone).
    @Test func theBootloaderNameIsReportedAndJournaled() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let device = "sim:protocol=nordic,timescale=0,inactivity=off,bl_address=random"
        let run = try DFURun.run(["flash", NordicFlashCLITests.package, "--device", device, "--key", NordicFlashCLITests.key,
                                  "--json"], timeout: 30, environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 0, "\(run.output)")
        let named = try #require(run.stdoutLines.first { $0.contains(#""event":"bootloader-named""#) }, "\(run.stdout)")
        let name = try #require(named.range(of: #"Dfu[0-9]{5}"#, options: .regularExpression).map { String(named[$0]) })
        let journals = try FileManager.default.contentsOfDirectory(atPath: state + "/dfu").filter { $0.hasSuffix(".json") }
        #expect(journals.count == 1)
        let text = try String(contentsOfFile: state + "/dfu/" + (journals.first ?? ""), encoding: .utf8)
        #expect(text.contains(#""bootloader_name":"\#(name)""#) || text.contains(#""bootloader_name" : "\#(name)""#), "\(text)")
    }

    /// A virtual device named by an id that is no address, as a factory plan names its units
    /// (issue 19, item 12): no "+ 1" can be derived, so its bootloader answers under the id itself
    /// and is found there, even where no name helps (set-name unsupported, another DfuTarg near).
    @Test func aDeviceNamedByAnIdThatIsNoAddressIsFlashed() throws {
        let run = try Self.flash(sim: "id=unit-01,set_name=off,bootloaders_nearby=1")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: application fw_version 3 activated on ") == true, "\(run.stdout)")
    }

    /// A bootloader that is not found says why in words, not as a Swift value ("link(…)").
    @Test func aBootloaderNotFoundInTimeIsSaidInWords() throws {
        let run = try Self.flash(sim: "bl_address=random,set_name=off", ["--connect-timeout", "3"])
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(run.stderr.contains("the bootloader was not found at "), "\(run.stderr)")
        #expect(run.stderr.contains(" within 3.0 seconds (nothing answered in time). Retry: "), "\(run.stderr)")
        #expect(!run.stderr.contains("link("), "\(run.stderr)")
    }
}
