@testable import dfu_faults
import Foundation
import Testing

/// Process-death runs through the real `dfu` binary (the one built beside this test bundle, or
/// `DFU_BINARY`): killed mid-transfer, in its reboot wait, as the device resets, and on the Nordic
/// serial line, then finished by `dfu resume` (itself killed once), and a Nordic batch killed and
/// run again; each run must end completed with every invariant kept. A few seconds each.
@Suite(.timeLimit(.minutes(2))) struct ProcessDeathRunTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    private func options() throws -> FaultsOptions {
        var words = ["--image", "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin",
                     "--key", "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem",
                     "--other-key", "firmware-samples/keys/TEST-ONLY-other-ecdsa-p256.pub.pem",
                     "--package", "firmware-samples/nordic/app-signed-3.zip",
                     "--nordic-key", "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.pem",
                     "--nordic-other-key", "firmware-samples/nordic/keys/TEST-ONLY-nordic-other-p256.pub.pem"]
        for index in stride(from: 1, to: words.count, by: 2) { words[index] = Self.root + "/" + words[index] }
        if let binary = ProcessInfo.processInfo.environment["DFU_BINARY"], !binary.isEmpty {
            words += ["--dfu", binary.hasPrefix("/") ? binary : Self.root + "/" + binary]
        }
        return try FaultsOptions.parse(words)
    }

    private func run(_ name: String, seed: UInt64) async throws -> RunRecord {
        let options = try options()
        let scenario = try #require(Scenario.processCatalogue.first { $0.name == name })
        let run = ScenarioRun(scenario: scenario, run: 1, seed: seed, inputs: try FlashInputs.load(options),
                              nordicInputs: scenario.nordic == nil ? nil : try NordicInputs.load(options),
                              processInputs: try ProcessInputs.load(options), timeScale: 0.05, hangGuard: .seconds(30))
        return try await run.perform()
    }

    /// Runs scenario `name` at `seed` and expects what every run here must show: completed, every
    /// invariant kept, and (when `kills` is given) that many `dfu` processes killed before the one
    /// that finished. The record, for each test's own checks.
    private func finished(_ name: String, seed: UInt64, kills: Int? = 1) async throws -> RunRecord {
        let record = try await run(name, seed: seed)
        #expect(record.outcome == .completed, "\(record.outcome) \(record.attempts.map(\.message))")
        #expect(record.violations.isEmpty, "\(record.violations)")
        if let kills { #expect(record.attempts.map(\.killed) == Array(repeating: true, count: kills) + [false]) }
        return record
    }

    /// Seed 1000 kills at 92.30 % of the upload, seed 1007 as the device resets (`KillPoint`).
    @Test(arguments: [(UInt64(1000), "SIGKILL@92.30% in transfer"), (1007, "SIGKILL@resetting")])
    func aKilledFlashIsFinishedByResume(seed: UInt64, faults: String) async throws {
        let record = try await finished("kill-resume", seed: seed)
        #expect(record.faults.hasPrefix(faults), "\(record.faults)")
        if seed == 1000 {
            #expect(record.resumes == 1, "the resumed upload started from the device's offset")
            #expect(record.extraBytes >= 0 && record.extraBytes < record.imageBytes / 2, "\(record.extraBytes)")
        }
    }

    @Test func aKilledNordicFlashOverSerialIsFinishedByResume() async throws {
        let record = try await finished("nordic-kill-resume", seed: 1000, kills: nil)
        #expect(record.resumes == 1)
        #expect(record.faults == "SIGKILL@92.30% in transfer")
    }

    /// Seed 1001 kills `dfu flash` at 7.63 % of the upload and then `dfu resume` as the device resets.
    @Test func aResumeKilledInItsTurnIsFinishedByTheNextResume() async throws {
        let record = try await finished("kill-resume-twice", seed: 1001, kills: 2)
        #expect(record.faults.hasPrefix("SIGKILL@7.63% in transfer, then SIGKILL@resetting"), "\(record.faults)")
    }

    /// Seed 1000 kills at 92.30 % of what the device received over BlueZ; bluetoothd keeps the
    /// dead client's link, and the rerun takes the upload up from the device's offset.
    @Test func aFlashKilledOverBlueZIsFinishedByTheSameCommand() async throws {
        let record = try await finished("bluez-kill-rerun", seed: 1000)
        #expect(record.faults == "SIGKILL@92.30% in transfer", "\(record.faults)")
        #expect(record.resumes == 1, "the rerun started from the device's offset")
    }

    /// Over BlueZ too the kill comes at a step of the activation, timed by what the stand-in hands
    /// the device and by the device's own events: seed 1006 as the device writes the upload's last
    /// byte, 1005 as it gets the mark for the test boot, 1007 as it begins its reset (the next
    /// `dfu` finds it gone from the link and waits for it), then `dfu resume` finishes.
    @Test(arguments: [(UInt64(1006), "SIGKILL@uploaded"), (1005, "SIGKILL@marking"), (1007, "SIGKILL@resetting")])
    func aFlashKilledOverBlueZInItsActivationIsFinishedByResume(seed: UInt64, faults: String) async throws {
        let record = try await finished("bluez-kill-resume", seed: seed)
        #expect(record.faults.hasPrefix(faults), "\(record.faults)")
        #expect(record.extraBytes == 0, "nothing sent again")
    }

    /// Seed 1001 kills as the host is about to write the last Execute over BlueZ: the bootloader
    /// activates the package, and `dfu resume` must find it done (finding 15).
    @Test func aNordicFlashKilledAtTheLastExecuteOverBlueZIsFinishedByResume() async throws {
        let record = try await finished("bluez-nordic-kill-resume", seed: 1001, kills: nil)
        #expect(record.faults == "SIGKILL@last-execute in transfer", "\(record.faults)")
        #expect(record.extraBytes == 0, "nothing sent again")
    }

    /// Seed 1000 kills at 92.30 % of the firmware with the bootloader at an address of its own
    /// (`bl_address=random`): `dfu resume` can find it only by the name the killed run gave it,
    /// which the journal kept, and carries on from the bootloader's offset.
    @Test func aNordicFlashKilledWithItsBootloaderElsewhereIsFinishedByResume() async throws {
        let record = try await finished("bluez-nordic-elsewhere-kill-resume", seed: 1000, kills: nil)
        #expect(record.device.contains("bl_address=random"))
        #expect(record.faults == "SIGKILL@92.30% in transfer", "\(record.faults)")
        #expect(record.resumes == 1 && record.extraBytes == 0, "carried on, nothing sent again")
    }

    /// Seed 1000: the device goes deaf both ways for 15.37 s of model time (0.77 s real) at 92.30 %
    /// of the upload and `dfu flash` dies as it does; `dfu resume` starts while the device is still
    /// out, is answered once it is back, and carries the upload on from the offset it kept.
    @Test func aFlashKilledInAnOutageIsFinishedByResume() async throws {
        let record = try await finished("kill-in-outage", seed: 1000)
        #expect(record.faults.hasPrefix("outage@92.3%:15370ms+SIGKILL@outage"), "\(record.faults)")
        #expect(record.resumes == 1, "the upload was carried on, not started over")
    }

    /// Over a serial line (the device on a pseudo-terminal): seed 1000 kills at 92.30 % of what the
    /// device read off the line, and `dfu resume` carries the upload on from its offset; seed 1007
    /// as the device begins its reset (the line stays: a UART), and `dfu resume` finds it back.
    @Test(arguments: [(UInt64(1000), "SIGKILL@92.30% in transfer"), (1007, "SIGKILL@resetting")])
    func aFlashKilledOverASerialLineIsFinishedByResume(seed: UInt64, faults: String) async throws {
        let record = try await finished("serial-kill-resume", seed: seed)
        #expect(record.faults.hasPrefix(faults), "\(record.faults)")
        #expect(record.resumes == (seed == 1000 ? 1 : 0), "carried on from the device's offset after a kill in the transfer")
    }

    /// Seed 1000: the device on a USB serial port drops the line at 92.30 % of the upload (the port
    /// vanishes and comes back) and `dfu flash` dies as it does; `dfu resume` opens the port again
    /// and carries the upload on (or, when the requests the dead run left on the line finished the
    /// upload before it opened the port, finds nothing left to send: the host's pace decides).
    @Test func aFlashKilledAsAUSBPortVanishesIsFinishedByResume() async throws {
        let record = try await finished("serial-usb-kill-at-drop", seed: 1000)
        #expect(record.faults.hasPrefix("disconnect@92.3%+SIGKILL@link-drop"), "\(record.faults)")
        #expect(record.extraBytes < record.imageBytes / 4, "not started over: \(record.extraBytes) bytes sent again")
    }

    /// Seed 1000: the device drops the BLE link at 92.30 % of the upload and `dfu flash` dies as it
    /// does, before it reconnects; `dfu resume` connects again and carries the upload on.
    @Test func aFlashKilledAsTheDeviceDropsTheLinkIsFinishedByResume() async throws {
        let record = try await finished("bluez-kill-at-drop", seed: 1000)
        #expect(record.faults.hasPrefix("disconnect@92.3%+SIGKILL@link-drop"), "\(record.faults)")
        #expect(record.resumes == 1, "the upload was carried on, not started over")
    }

    /// A serial-only nRF52 whose `dfu` died as the bootloader got the last Execute runs the new
    /// application, which reads nothing on the line; put back in DFU mode, the same command sends
    /// the package again and finishes (nothing on the line says the application is already it).
    @Test func aNordicFlashKilledAtTheLastExecuteOverSerialIsFinishedInDFUMode() async throws {
        let record = try await finished("nordic-kill-at-activation", seed: 1000)
        #expect(record.faults == "SIGKILL@last-execute in transfer+dfu-mode-by-hand", "\(record.faults)")
        #expect(record.extraBytes == record.imageBytes, "the package sent again, whole")
    }

    /// Seed 1000: one power cut at 92.30 % of the firmware takes down `dfu` and the device, which
    /// starts its old application. Over a serial line the board is put back in DFU mode and the
    /// same command finishes; over BlueZ `dfu resume` enters the bootloader by buttonless DFU again.
    @Test(arguments: ["nordic-kill-at-power-cut", "bluez-nordic-kill-at-power-cut"])
    func aNordicFlashKilledByAPowerCutThatTookTheDeviceDownIsFinished(scenario: String) async throws {
        let record = try await finished(scenario, seed: 1000)
        let byHand = scenario.hasPrefix("bluez-") ? "" : "+dfu-mode-by-hand"
        #expect(record.faults == "SIGKILL@92.30% in transfer+power-cut" + byHand, "\(record.faults)")
    }

    /// Seed 1000 kills at 77.75 % of the upload, then the rerun at 21.11 % of what is left.
    @Test func aRerunKilledInItsTurnIsFinishedByTheNextRerun() async throws {
        let record = try await finished("kill-rerun-twice", seed: 1000, kills: 2)
        #expect(record.faults.hasPrefix("SIGKILL@77.75% in transfer, then SIGKILL@"), "\(record.faults)")
    }

    /// The device resets at 92.30 % of the upload and `dfu flash` dies with it: the session is lost.
    @Test func aKillAsTheDeviceResetsIsFinishedByResumeFromTheStart() async throws {
        let record = try await finished("kill-at-reboot", seed: 1000, kills: nil)
        #expect(record.resumes == 0)
        #expect(record.faults == "reboot@92.3%+SIGKILL@resetting in transfer")
    }

    /// Seed 1000 kills the batch at 92.30 % of a device's image, then its rerun once the devices
    /// were sent 21.11 % of an image more; the third batch finishes every device.
    @Test func aBatchKilledTwiceIsFinishedByItsThirdRun() async throws {
        let record = try await finished("batch-kill-twice", seed: 1000, kills: 2)
        #expect(record.faults.hasSuffix(", then SIGKILL@21.11% of an image in the rerun"), "\(record.faults)")
    }

    /// Seed 1000 kills the Nordic batch, then its rerun once the bootloaders were sent 21.11 % of a
    /// package more; the devices running their application go back into DFU mode before each run.
    @Test func aNordicBatchKilledTwiceIsFinishedByItsThirdRun() async throws {
        let record = try await finished("nordic-batch-kill-twice", seed: 1000, kills: 2)
        #expect(record.faults.hasSuffix(", then SIGKILL@21.11% of an image in the rerun"), "\(record.faults)")
    }

    @Test func aNordicBatchKilledMidwayIsFinishedByItsRerun() async throws {
        let record = try await finished("nordic-batch-kill", seed: 1000, kills: nil)
        // Where the other devices were depends on the host's pace (usually 2 done, 2 mid-transfer, 1
        // waiting); a completed run had some done, some mid-transfer and some waiting.
        #expect(record.faults.hasPrefix("SIGKILL@92.30% of a device's image: "), "\(record.faults)")
        #expect(record.resumes >= 1, "the rerun carried on the devices it had cut off")
    }
}
