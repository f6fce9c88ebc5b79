import Foundation
import Testing

/// `dfu image list|test|confirm|erase`, `dfu reset` and `dfu echo` through the binary: against the
/// in-process virtual device for one-step checks, and against `dfu sim --serve` over UDP, whose
/// device keeps its slots between commands, for the steps of an update done by hand.
@Suite(.endToEnd) struct ImageCommandsCLITests {
    /// The virtual device's own 1.0.0 image (slot 0 at start).
    static let runningHash = "8d6b90949b26d804567e1c7a273066596bf7320574da611f903d6d6365cb44fc"
    /// blinky-ecdsa-p256-1.1.0's SHA256 TLV (firmware-samples/expected.tsv).
    static let newHash = "5c4fd4450dc19689d038b5407d643ab70079f9f2c89cca2a9f3de4ca692a1b82"
    static let sim = "sim:timescale=0"

    /// A served device with 1.1.0 uploaded to slot 1 (`dfu flash --mode upload-only`).
    private func servedDevice(uploading mode: String = "upload-only") throws -> (LiveDFUProcess, String) {
        let server = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let ready = try #require(server.ready(), "no ready line: \(server.lines)")
        let device = "udp:127.0.0.1:\(ready.port)"
        let upload = try DFURun.run(["flash", FlashCLITests.image, "--device", device, "--key", FlashCLITests.key,
                                     "--mode", mode], timeout: 60)
        #expect(upload.exitCode == 0, "\(upload.output)")
        return (server, device)
    }

    private func slots(_ run: DFURun) throws -> [[String: Any]] {
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last))
        return try #require(result["slots"] as? [[String: Any]], "\(run.stdout)")
    }

    // MARK: - An update by hand

    /// Upload, list (slot 1 holds it, not pending), test (pending), reset (it runs, not
    /// confirmed), confirm (confirmed), erase (slot 1 gone): each step as the device reports it.
    @Test func testResetConfirmAndEraseStepByStep() throws {
        let (server, device) = try servedDevice()
        defer { _ = server.stop() }

        let uploaded = try DFURun.run(["image", "list", "--device", device], timeout: 30)
        #expect(uploaded.exitCode == 0, "\(uploaded.output)")
        #expect(uploaded.stdoutLines == [
            "image 0 slot 0: 1.0.0+0  active confirmed bootable", "  hash \(Self.runningHash)",
            "image 0 slot 1: 1.1.0+0  bootable", "  hash \(Self.newHash)",
        ])

        let test = try DFURun.run(["image", "test", Self.newHash.uppercased(), "--device", device], timeout: 30)
        #expect(test.exitCode == 0, "\(test.output)")
        #expect(test.stdoutLines.first == "OK: 1.1.0+0 (image 0, slot 1) is marked for test: it boots at the next reset, "
                + "once, unless confirmed then")
        #expect(test.stdoutLines.contains("image 0 slot 1: 1.1.0+0  pending bootable"))
        let pending = try slots(try DFURun.run(["image", "list", "--device", device, "--json"], timeout: 30))
        #expect(pending.first { $0["slot"] as? Int == 1 }?["pending"] as? Bool == true)
        #expect(pending.first { $0["slot"] as? Int == 1 }?["permanent"] as? Bool == false)

        let reset = try DFURun.run(["reset", "--device", device, "--wait"], timeout: 90)
        #expect(reset.exitCode == 0, "\(reset.output)")
        #expect(reset.stdoutLines.last?.hasPrefix("OK: \(device) is back after ") == true, "\(reset.stdout)")

        let running = try DFURun.run(["image", "list", "--device", device], timeout: 30)
        #expect(running.stdoutLines == [
            "image 0 slot 0: 1.1.0+0  active bootable", "  hash \(Self.newHash)",
            "image 0 slot 1: 1.0.0+0  confirmed bootable", "  hash \(Self.runningHash)",
        ], "\(running.output)")

        let confirm = try DFURun.run(["image", "confirm", "--device", device], timeout: 30)
        #expect(confirm.exitCode == 0, "\(confirm.output)")
        #expect(confirm.stdoutLines.first == "OK: 1.1.0+0 (image 0, slot 0) runs and is confirmed: it stays at the next reset")
        #expect(confirm.stdoutLines.contains("image 0 slot 0: 1.1.0+0  active confirmed bootable"))

        let erase = try DFURun.run(["image", "erase", "--device", device, "--json"], timeout: 60)
        #expect(erase.exitCode == 0, "\(erase.output)")
        let left = try slots(erase)
        #expect(left.count == 1 && left.first?["slot"] as? Int == 0 && left.first?["sha256"] as? String == Self.newHash)
        #expect(try DFURun.run(["image", "list", "--device", device], timeout: 30).stdoutLines.last == "image 0 slot 1: empty")
    }

    /// `dfu flash --mode test-only` leaves the image running unconfirmed; `dfu image confirm`
    /// makes it stay, without the file.
    @Test func aTestOnlyImageIsConfirmedWithoutTheFile() throws {
        let (server, device) = try servedDevice(uploading: "test-only")
        defer { _ = server.stop() }
        let before = try slots(try DFURun.run(["image", "list", "--device", device, "--json"], timeout: 30))
        let running = try #require(before.first { $0["slot"] as? Int == 0 })
        #expect(running["sha256"] as? String == Self.newHash && running["confirmed"] as? Bool == false)

        let confirm = try DFURun.run(["image", "confirm", "--device", device, "--json"], timeout: 30)
        #expect(confirm.exitCode == 0, "\(confirm.output)")
        let result = try FlashCLITests.object(try #require(confirm.stdoutLines.last))
        #expect(result["command"] as? String == "image confirm" && result["hash"] is NSNull)
        let after = try #require(try slots(confirm).first { $0["slot"] as? Int == 0 })
        #expect(after["sha256"] as? String == Self.newHash && after["confirmed"] as? Bool == true)
    }

    /// Confirming an uploaded image by its hash makes it boot next for good: pending and permanent.
    @Test func confirmWithTheHashOfAnUploadedImageMakesItPermanent() throws {
        let (server, device) = try servedDevice()
        defer { _ = server.stop() }
        let confirm = try DFURun.run(["image", "confirm", Self.newHash, "--device", device], timeout: 30)
        #expect(confirm.exitCode == 0, "\(confirm.output)")
        #expect(confirm.stdoutLines.first == "OK: 1.1.0+0 (image 0, slot 1) is permanent: it boots at the next reset, for good")
        #expect(confirm.stdoutLines.contains("image 0 slot 1: 1.1.0+0  pending permanent bootable"))
    }

    // MARK: - Refusals

    @Test func aHashNoSlotHoldsIsRefusedWithTheHashesTheDeviceHas() throws {
        let run = try DFURun.run(["image", "test", String(repeating: "ab", count: 32), "--device", Self.sim], timeout: 30)
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("has no image with hash abababababababab… (its slots hold 1.0.0+0 (image 0, slot 0) "
                                    + "8d6b90949b26d804…). 'dfu image list' shows each slot's full hash."), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test(arguments: ["12", String(repeating: "g", count: 64), String(repeating: "0", count: 63)])
    func aMalformedHashIsAUsageError(hash: String) throws {
        let run = try DFURun.run(["image", "test", hash, "--device", Self.sim])
        #expect(run.exitCode == 2)
        #expect(run.stderr == "dfu: error: invalid value '\(hash)' for <HASH>: expected 64 hex digits: a slot's SHA256 "
                + "hash, as 'dfu image list' shows it\nsee 'dfu image test --help'\n")
    }

    @Test func testingTheRunningImageIsRefusedInWords() throws {
        let run = try DFURun.run(["image", "test", Self.runningHash, "--device", Self.sim], timeout: 30)
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("runs 1.0.0+0 (image 0, slot 0) already: it cannot be marked for test"), "\(run.stderr)")
    }

    @Test func erasingTheRunningSlotIsRefused() throws {
        let run = try DFURun.run(["image", "erase", "0", "--device", Self.sim], timeout: 30)
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("refused to erase slot 0: the slot is in use"), "\(run.stderr)")
    }

    @Test(arguments: [["image", "list"], ["image", "test", newHash], ["image", "confirm"], ["image", "erase"], ["reset"],
                      ["echo", "hello"]])
    func aNordicDeviceIsRefusedBeforeAnythingIsSent(command: [String]) throws {
        let run = try DFURun.run(command + ["--device", "sim:protocol=nordic,timescale=0"], timeout: 30)
        #expect(run.exitCode == 4, "\(run.output)")
        let name = command[0] == "image" ? "dfu image \(command[1])" : "dfu \(command[0])"
        #expect(run.stderr.contains("is a Nordic Secure DFU device: it does not speak SMP (MCUmgr), so '\(name)' does not "
                                    + "apply to it."), "\(run.stderr)")
        #expect(run.stderr.contains("Nothing was sent."))
    }

    @Test func anUnreachableDeviceExitsFive() throws {
        let device = "udp:127.0.0.1:\(try FlashCLITests.closedUDPPort())"
        let run = try DFURun.run(["image", "list", "--device", device, "--connect-timeout", "2", "--json"], timeout: 30)
        #expect(run.exitCode == 5, "\(run.output)")
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last))
        #expect(result["ok"] as? Bool == false && result["exit_code"] as? Int == 5 && result["slots"] == nil)
    }

    // MARK: - Listing, reset, echo

    @Test func listShowsEveryImageNumberOfATwoImageDevice() throws {
        let run = try DFURun.run(["image", "list", "--device", "sim:images=2,timescale=0"], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.contains("image 1 slot 0: 1.0.0+0  active confirmed bootable"), "\(run.stdout)")
        #expect(run.stdoutLines.last == "image 1 slot 1: empty")
    }

    @Test func resetWithoutWaitSaysTheResetWentOut() throws {
        let run = try DFURun.run(["reset", "--device", Self.sim], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.wholeMatch(of: /OK: reset sent to …:[0-9A-F]{2}:[0-9A-F]{2}; it restarts now\n/) != nil, "\(run.stdout)")
    }

    @Test func resetThatWaitsReportsHowLongTheDeviceTook() throws {
        // In real time: the virtual device takes a moment to boot.
        let run = try DFURun.run(["reset", "--wait", "--device", "sim", "--json"], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last))
        #expect(result["waited"] as? Bool == true)
        #expect((result["reboot_duration"] as? Double).map { $0 > 0 } == true, "\(run.stdout)")
    }

    /// A reset whose answer never came (the request or only the answer lost with the link) may
    /// or may not have happened: said so, exit 5, and not sent again.
    @Test(arguments: ["drop@request:reset", "drop-before@request:reset"])
    func aResetWithoutAnAnswerIsNotReportedAsDone(fault: String) throws {
        let run = try DFURun.run(["reset", "--wait", "--device", "sim:fault=\(fault)", "--reboot-timeout", "5"], timeout: 30)
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(!run.stdout.contains("OK"))
        #expect(run.stderr.contains("closed before it answered the reset request (closed by the device (HCI 0x13)): whether "
                                    + "it reset is not known, and dfu does not send it again"), "\(run.stderr)")
    }

    @Test func echoPrintsWhatTheDeviceSentBack() throws {
        let text = "héllo wörld, 1 2 3"
        let run = try DFURun.run(["echo", text, "--device", Self.sim], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout == text + "\n")
        let json = try DFURun.run(["echo", text, "--device", Self.sim, "--json"], timeout: 30)
        #expect(try FlashCLITests.object(try #require(json.stdoutLines.last))["text"] as? String == text)
    }

    // MARK: - The command group

    @Test func imageWithoutACommandIsAUsageErrorThatListsThem() throws {
        let run = try DFURun.run(["image"])
        #expect(run.exitCode == 2)
        #expect(run.stderr.contains("  list "), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("dfu: error: no image command given\nsee 'dfu image --help'\n"))
        let typo = try DFURun.run(["image", "lsit"])
        #expect(typo.exitCode == 2)
        #expect(typo.stderr == "dfu: error: unknown command 'image lsit' (did you mean 'image list'?)\nsee 'dfu image --help'\n")
    }

    @Test func helpOfAnImageCommandIsTheSameEveryWay() throws {
        let viaFlag = try DFURun.run(["image", "list", "--help"])
        let viaHelp = try DFURun.run(["help", "image", "list"])
        #expect(viaFlag.exitCode == 0 && viaHelp.exitCode == 0)
        #expect(viaFlag.stdout == viaHelp.stdout)
        #expect(viaFlag.stdout.hasPrefix("OVERVIEW: List a device's image slots: versions, hashes and flags.\n\n"
                                         + "USAGE: dfu image list --device <DEVICE> [options]\n"))
        #expect(try DFURun.run(["help", "image"]).stdout == DFURun.run(["image", "--help"]).stdout)
    }
}
