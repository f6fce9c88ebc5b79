import Foundation
import Testing

/// `dfu flash PKG.zip --device serial:PATH` as a user runs it against `dfu sim --serve serial:PATH
/// --protocol nordic`: the virtual nRF52's serial bootloader on a pseudo-terminal, in DFU mode from
/// the start, paced at the line's baud rate.
@Suite(.serialized, .endToEnd) struct NordicSerialCLITests {
    static let package = NordicFlashCLITests.package
    static let key = NordicFlashCLITests.key

    /// A fresh path for the sim's port link.
    static func portPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("dfu-nordic-\(UUID().uuidString.prefix(8)).tty").path
    }

    /// `dfu sim --serve serial:PATH[,serve…] --protocol nordic [flags…]`, once it says it serves.
    static func sim(_ path: String, serve: String = "", flags: [String] = []) throws -> LiveDFUProcess {
        let sim = try LiveDFUProcess(sim: ["--serve", "serial:" + path + serve, "--protocol", "nordic"] + flags)
        let line = try #require(sim.nextLine(), "no ready line; stdout so far: \(sim.lines)")
        try #require(line.hasPrefix("dfu sim: serving Nordic Secure DFU on serial \(path) ("), "\(line)")
        return sim
    }

    /// What the sim printed, once stopped (the reset and boot lines come after dfu ended).
    static func stop(_ sim: LiveDFUProcess, waitingFor text: String? = nil) -> LiveDFUProcess.Ended {
        if let text {
            while !sim.lines.contains(where: { $0.contains(text) }), sim.nextLine(timeout: 5) != nil {}
        }
        return sim.stop()
    }

    /// At the default 115,200 baud: nrfutil's 64-byte Write Objects, the line's pace (about 4.5 s
    /// for 49 kB), and no wait for an application that cannot answer on the line.
    @Test func flashesTheSerialBootloaderAndItStartsTheNewApplication() throws {
        let path = Self.portPath()
        let sim = try Self.sim(path)
        let run = try DFURun.run(["flash", Self.package, "--device", "serial:" + path, "--key", Self.key], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("connected: serial:\(path)"), "\(run.stdout)")
        #expect(!run.stdout.contains("reconnected"), "\(run.stdout)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: application fw_version 3 activated on serial:\(path)") == true, "\(run.stdout)")
        let ended = Self.stop(sim, waitingFor: "up again")
        #expect(ended.exitCode == 0)
        #expect(ended.stdoutLines.contains("dfu sim: the bootloader resets: application activated (fw_version 3)"), "\(ended.stdoutLines)")
        #expect(ended.stdoutLines.contains("dfu sim: up again (boot 1), running application 0.0.3 (fw_version 3)"), "\(ended.stdoutLines)")
    }

    /// `--cp-fault`: the bootloader sends one Calculate Checksum answer twice; the copy answers a
    /// request dfu no longer waits for, a protocol violation (exit 7), nothing activated.
    @Test func aRepeatedAnswerFromTheSimsBootloaderIsExitSeven() throws {
        let path = Self.portPath()
        let sim = try Self.sim(path, serve: ",baud=1000000", flags: ["--cp-fault", "duplicate@checksum:3"])
        let run = try DFURun.run(["flash", Self.package, "--device", "serial:\(path),baud=1000000", "--key", Self.key], timeout: 30)
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("the bootloader answered Calculate Checksum while Execute was outstanding"), "\(run.stderr)")
        let ended = Self.stop(sim)
        #expect(ended.exitCode == 0)
        #expect(ended.stdoutLines.contains("dfu sim: fault injected: cp_fault=duplicate@checksum:3"), "\(ended.stdoutLines)")
        #expect(!ended.stdoutLines.contains { $0.contains("application activated") }, "\(ended.stdoutLines)")
    }

    @Test func jsonLinesEndWithTheActivatedFirmware() throws {
        let path = Self.portPath()
        let sim = try Self.sim(path, serve: ",baud=1000000")
        let run = try DFURun.run(["flash", Self.package, "--device", "serial:\(path),baud=1000000", "--key", Self.key,
                                  "--json", "--prn", "8"], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last))
        #expect(result["event"] as? String == "result")
        #expect(result["ok"] as? Bool == true, "\(result)")
        #expect(Self.stop(sim).exitCode == 0)
    }

    /// A USB port that vanishes mid-transfer (the bootloader drops it after its 20th Write Object):
    /// dfu opens it again when it is back, and resumes where the bootloader says.
    @Test func aUSBPortThatVanishesMidTransferIsOpenedAgain() throws {
        let path = Self.portPath()
        let sim = try Self.sim(path, serve: ",usb,baud=1000000", flags: ["--drop", "packet:20", "--sdk", "15"])
        let run = try DFURun.run(["flash", Self.package, "--device", "serial:\(path),baud=1000000", "--key", Self.key], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.output.contains("was lost (the serial port \(path) went away"), "\(run.output)")
        let ended = Self.stop(sim, waitingFor: "up again")
        #expect(ended.stdoutLines.contains("dfu sim: port vanished (the USB device resets)"), "\(ended.stdoutLines)")
        #expect(ended.stdoutLines.contains("dfu sim: up again (boot 1), running application 0.0.3 (fw_version 3)"), "\(ended.stdoutLines)")
    }

    @Test func whatASerialBootloaderCannotDoIsAUsageError() throws {
        let path = Self.portPath()
        let sim = try Self.sim(path, serve: ",baud=1000000")
        let raw = try DFURun.run(["flash", Self.package, "--device", "serial:\(path),raw"], timeout: 30)
        #expect(raw.exitCode == 2, "\(raw.output)")
        #expect(raw.stderr.contains("raw applies to MCUboot images (SMP)"), "\(raw.stderr)")
        let expect = try DFURun.run(["flash", Self.package, "--device", "serial:\(path),baud=1000000", "--expect-version", "0.0.3"],
                                    timeout: 30)
        #expect(expect.exitCode == 2, "\(expect.output)")
        #expect(expect.stderr.contains("cannot be checked over a serial port"), "\(expect.stderr)")
        let ended = Self.stop(sim)
        #expect(!ended.stdoutLines.contains { $0.contains("resets") }, "nothing was sent: \(ended.stdoutLines)")
    }

    @Test func theNordicSimTakesNoSMPLineOptions() throws {
        let run = try DFURun.run(["sim", "--serve", "serial:\(Self.portPath()),noise", "--protocol", "nordic"], timeout: 30)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("raw, noise and garble apply to the SMP device"), "\(run.stderr)")
    }
}
