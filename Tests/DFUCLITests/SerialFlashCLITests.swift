import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing

/// `dfu flash --device serial:PATH` against `dfu sim --serve serial:PATH` on a pseudo-terminal, as a
/// user flashes a board on /dev/ttyACM0: the console framing and raw packets, log lines sharing the
/// line, a garbled reply, a USB port that vanishes at the reset and mid-transfer, and the port
/// errors (missing, busy, not a terminal, a rate termios cannot set).
@Suite(.serialized, .endToEnd) struct SerialFlashCLITests {
    static let image = FlashCLITests.image
    static let key = FlashCLITests.key

    /// A sim on a fresh pty linked in a temporary folder; the sim is stopped and the folder removed
    /// by `close`.
    final class SerialSim {
        let folder: URL
        let path: String
        let process: LiveDFUProcess
        let readyLine: String

        init(_ options: String = "", device: [String] = []) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-serial-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.appendingPathComponent("ttyDFU").path
            process = try LiveDFUProcess(sim: ["--serve", "serial:\(path)\(options)"] + device)
            readyLine = process.nextLine() ?? ""
        }

        var isReady: Bool { readyLine.hasPrefix("dfu sim: serving SMP on serial \(path)") }

        func stop() -> LiveDFUProcess.Ended {
            defer { try? FileManager.default.removeItem(at: folder) }
            return process.stop()
        }
    }

    @Test func flashesOverTheConsoleFramingWithLogLinesOnTheLine() throws {
        let sim = try SerialSim(",baud=1000000,noise=3")
        #expect(sim.isReady, "\(sim.readyLine)")
        let device = "serial:\(sim.path),baud=1000000"
        let run = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key, "--verbose"], timeout: 60)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("connected: \(device), window"), "a line has no MTU to show: \(run.stdout)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on \(device)") == true)
        #expect(run.stderr.contains("device: [") && run.stderr.contains("<inf> app: heartbeat"),
                "the device's log lines are shown with --verbose: \(run.stderr)")
        let again = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key], timeout: 60)
        #expect(again.exitCode == 0, "\(again.output)")
        #expect(again.stderr.contains("already runs this image"))
        #expect(!again.stderr.contains("heartbeat"), "log lines only with --verbose")
        #expect(sim.stop().exitCode == 0)
    }

    @Test func flashesRawSMPPackets() throws {
        let sim = try SerialSim(",baud=1000000,raw")
        #expect(sim.isReady, "\(sim.readyLine)")
        let run = try DFURun.run(["flash", Self.image, "--device", "serial:\(sim.path),baud=1000000,raw", "--key", Self.key],
                                 timeout: 60)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(sim.stop().exitCode == 0)
    }

    /// A run that ends early (a corrupt reply: exit 7) leaves the device answering its chunks into
    /// the port; the next run, opened on the same line, drops those leftovers and finishes.
    @Test func theRunAfterAFailedOneIsNotConfusedByItsLeftoverReplies() throws {
        let sim = try SerialSim(",baud=1000000", device: ["--fault", "corrupt@50%"])
        #expect(sim.isReady, "\(sim.readyLine)")
        let device = "serial:\(sim.path),baud=1000000"
        let first = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key], timeout: 60)
        #expect(first.exitCode == 7, "\(first.output)")
        let again = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key], timeout: 90)
        #expect(again.exitCode == 0, "\(again.output)")
        #expect(!again.stderr.contains("never sent"), "\(again.stderr)")
        #expect(sim.stop().exitCode == 0)
    }

    /// A reply garbled on the wire fails its CRC; the request is sent again and the update ends well.
    @Test func aGarbledReplyIsSentAgain() throws {
        let sim = try SerialSim(",baud=1000000,garble=7")
        #expect(sim.isReady, "\(sim.readyLine)")
        let run = try DFURun.run(["flash", Self.image, "--device", "serial:\(sim.path),baud=1000000", "--key", Self.key,
                                  "--verbose"], timeout: 90)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("serial: dropped a console frame"), "\(run.stderr)")
        let ended = sim.stop()
        #expect(ended.stdoutLines.contains { $0.contains("garbled reply") })
    }

    /// USB CDC ACM: the port vanishes while the device resets (and, with a fault, mid-transfer);
    /// dfu opens it again when it is back and resumes from the device's offset.
    @Test func aUSBPortThatVanishesMidTransferIsOpenedAgainAndTheUploadResumes() throws {
        let sim = try SerialSim(",baud=1000000,usb", device: ["--fault", "disconnect@50%"])
        #expect(sim.isReady, "\(sim.readyLine)")
        let run = try DFURun.run(["flash", Self.image, "--device", "serial:\(sim.path),baud=1000000", "--key", Self.key],
                                 timeout: 90)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true)
        let ended = sim.stop()
        #expect(ended.stdoutLines.filter { $0.contains("port vanished") }.count >= 2, "\(ended.stdoutLines)")
        #expect(ended.stdoutLines.contains { $0.contains("port back") })
    }

    @Test func aMissingPortIsReportedAtOnce() throws {
        let run = try DFURun.run(["flash", Self.image, "--device", "serial:/dev/ttyDFU-missing-\(getpid())", "--key", Self.key],
                                 timeout: 30)
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(run.stderr.contains("no serial port /dev/ttyDFU-missing"), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("`ls /dev/serial/by-id` lists the USB serial ports this computer sees.\n"), "\(run.stderr)")
    }

    /// MCUboot's serial recovery needs its own flow (no test or confirm): refused before the port is
    /// touched until it exists, rather than run the application's flow against a bootloader.
    /// Recovery options that contradict each other or the device are the user's mistake (exit 2),
    /// said before any port is opened.
    @Test(arguments: [
        (["--device", "serial:/dev/null,recovery", "--enter-recovery"], "give one of them"),
        (["--device", "udp:127.0.0.1:1337", "--enter-recovery"], "needs a serial device"),
        (["--device", "serial:/dev/null,recovery", "--mode", "test-only"], "no test boot or confirm step"),
    ])
    func recoveryMisusesAreUsageErrors(arguments: [String], says: String) throws {
        let run = try DFURun.run(["flash", Self.image, "--key", Self.key] + arguments, timeout: 30)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains(says), "\(run.stderr)")
    }

    @Test func aPathThatIsNoTerminalIsRefused() throws {
        let run = try DFURun.run(["flash", Self.image, "--device", "serial:/dev/null", "--key", Self.key], timeout: 30)
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(run.stderr.contains("/dev/null") && run.stderr.contains("not a terminal"), "\(run.stderr)")
    }

    @Test func aRateTermiosCannotSetIsAUsageError() throws {
        let run = try DFURun.run(["flash", Self.image, "--device", "serial:/dev/ttyS0,baud=123456", "--key", Self.key],
                                 timeout: 30)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("123456"), "\(run.stderr)")
    }

    /// Another program holds the port (its lock, as a second dfu would): dfu waits for it within
    /// the connect timeout, then says who to look for.
    @Test func aBusyPortIsReportedWithTheHint() throws {
        let sim = try SerialSim()
        #expect(sim.isReady, "\(sim.readyLine)")
        let holder = open(sim.path, O_RDWR | O_NOCTTY)
        #expect(holder >= 0)
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
        defer { close(holder) }
        let run = try DFURun.run(["flash", Self.image, "--device", "serial:\(sim.path)", "--key", Self.key,
                                  "--connect-timeout", "2"], timeout: 30)
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(run.stderr.contains("is in use by another program") && run.stderr.contains("fuser"), "\(run.stderr)")
        #expect(sim.stop().exitCode == 0)
    }
}
