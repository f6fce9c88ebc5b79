import Foundation
import SerialTransport
import Testing

/// `dfu info --device serial:PATH` as a user runs it against `dfu sim --serve serial:PATH`: the
/// protocol found by asking the port (an SMP device in either framing, an nRF5 SDK serial
/// bootloader), the link row showing the line (port, baud, framing, packet size) and no ATT MTU,
/// and a port where nothing answers. Each dfu run is awaited, not waited for on a thread: the
/// suite runs beside tests that play ports in this process (`ScanSerialCLITests`).
@Suite(.serialized, .endToEnd) struct InfoSerialCLITests {
    @Test func anSMPDeviceShowsTheLineInsteadOfAnMTU() async throws {
        let sim = try SerialFlashCLITests.SerialSim(",baud=1000000")
        defer { _ = sim.stop() }
        try #require(sim.isReady, "\(sim.readyLine)")
        let run = try await DFURun.awaiting(["info", "--device", "serial:\(sim.path),baud=1000000"], timeout: .seconds(30))
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.contains("link               \(sim.path) at 1000000 baud 8N1, console framing (127-byte lines), "
            + "packets up to 2471 bytes"), "\(run.stdout)")
        #expect(run.stdoutLines.contains("MCUmgr buffers     4 × 2475 bytes (3 requests in flight)"), "\(run.stdout)")
        #expect(!run.stdout.contains("MTU"), "\(run.stdout)")

        let json = try await DFURun.awaiting(["info", "--device", "serial:\(sim.path),baud=1000000", "--json"],
                                             timeout: .seconds(30))
        #expect(try JSONSchemaTests.validLines(json, command: "info", exitCode: 0) == ["result"])
        let object = try FlashCLITests.object(try #require(json.stdoutLines.last))
        #expect(object["protocol"] as? String == "smp")
        #expect(object["mtu"] is NSNull && object["max_write"] is NSNull, "\(object)")
        let serial = try #require(object["serial"] as? [String: Any], "\(object)")
        #expect(serial["port"] as? String == sim.path)
        #expect(serial["baud"] as? Int == 1_000_000)
        #expect(serial["flow_control"] as? String == "none")
        #expect(serial["framing"] as? String == "console")
        #expect(serial["line_length"] as? Int == 127)
        #expect(serial["packet_size"] as? Int == 2471)
        #expect(serial["device_mtu"] is NSNull)
    }

    /// A device waiting in MCUboot's serial recovery (`,recovery`): the bootloader's list, read as
    /// such: its images valid, no flags it does not report taken for "not bootable".
    @Test func aDeviceInSerialRecoveryIsReadAsTheBootloader() async throws {
        let sim = try SerialFlashCLITests.SerialSim(",baud=1000000,recovery")
        defer { _ = sim.stop() }
        try #require(sim.isReady, "\(sim.readyLine)")
        let run = try await DFURun.awaiting(["info", "--device", "serial:\(sim.path),baud=1000000,recovery"],
                                            timeout: .seconds(30))
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.contains("bootloader mode    MCUboot serial recovery"), "\(run.stdout)")
        #expect(run.stdoutLines.contains("slot 0             1.0.0+0: valid (MCUboot lists it)"), "\(run.stdout)")
        #expect(!run.stdout.contains("not bootable"), "\(run.stdout)")
    }

    /// A raw-SMP device named without `,raw` answers only the raw question: it is read so, and the
    /// device row says how to name it.
    @Test func aRawSMPDeviceIsFoundInItsFraming() async throws {
        let sim = try SerialFlashCLITests.SerialSim(",baud=1000000,raw")
        defer { _ = sim.stop() }
        try #require(sim.isReady, "\(sim.readyLine)")
        let run = try await DFURun.awaiting(["info", "--device", "serial:\(sim.path),baud=1000000"], timeout: .seconds(30))
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.contains("device             serial:\(sim.path),baud=1000000,raw"), "\(run.stdout)")
        #expect(run.stdoutLines.contains("link               \(sim.path) at 1000000 baud 8N1, raw SMP packets, packets up to 2475 bytes"),
                "\(run.stdout)")
        #expect(run.stdout.contains("slot 0             1.0.0+0: running, confirmed"), "\(run.stdout)")
    }

    /// The nRF5 SDK bootloader on a UART, found by its ping with no --protocol: what it tells over
    /// the line (protocol, chip, images, the MTU it reported) and what its objects hold.
    @Test func aNordicSerialBootloaderIsFoundAndRead() async throws {
        let path = NordicSerialCLITests.portPath()
        let sim = try NordicSerialCLITests.sim(path)
        defer { _ = NordicSerialCLITests.stop(sim) }
        let run = try await DFURun.awaiting(["info", "--device", "serial:" + path], timeout: .seconds(30))
        #expect(run.exitCode == 0, "\(run.output)")
        for line in [
            "device             serial:\(path)",
            "link               \(path) at 115200 baud 8N1, SLIP frames, bootloader MTU 131 bytes (64 bytes per Write Object)",
            "protocol           Nordic Secure DFU (protocol version 1): bootloader (DFU mode)",
            "chip               nRF52832 (variant AAE0): 512 KiB flash in 4096-byte pages, 64 KiB RAM",
            "bootloader         version 1 at 0x00078000, 24576 bytes",
            "SoftDevice         7.2.0 at 0x00001000, 151552 bytes",
            "application        version 1 at 0x00026000",
            "init packet        room for 512 bytes; empty",
            "firmware objects   4096 bytes each; nothing received",
        ] {
            #expect(run.stdoutLines.contains(line), "no '\(line)' in\n\(run.stdout)")
        }
        #expect(!run.stdout.contains("MCUmgr"), "\(run.stdout)")

        let json = try await DFURun.awaiting(["info", "--device", "serial:" + path, "--protocol", "nordic", "--json"],
                                             timeout: .seconds(30))
        #expect(try JSONSchemaTests.validLines(json, command: "info", exitCode: 0) == ["result"])
        let object = try FlashCLITests.object(try #require(json.stdoutLines.last))
        #expect(object["protocol"] as? String == "nordic")
        #expect(object["mtu"] is NSNull, "\(object)")
        let line = try #require(object["serial"] as? [String: Any], "\(object)")
        #expect(line["framing"] as? String == "slip")
        #expect(line["packet_size"] as? Int == 64)
        #expect(line["device_mtu"] as? Int == 131)
        let nordic = try #require(object["nordic"] as? [String: Any], "\(object)")
        #expect(nordic["role"] as? String == "bootloader")
        let details = try #require(nordic["serial"] as? [String: Any], "\(nordic)")
        #expect(details["protocol_version"] as? Int == 1)
        #expect((details["hardware"] as? [String: Any])?["part"] as? String == "nRF52832")
        let firmware = try #require(details["firmware"] as? [[String: Any]])
        #expect(firmware.map { $0["type"] as? String } == ["bootloader", "softdevice", "application"])
        #expect(firmware.map { $0["version_text"] as? String } == ["1", "7.2.0", "1"])
    }

    /// The USB CDC ACM bootloader (the nRF52840 Dongle's) reports a larger MTU: 1024-byte Write Objects.
    @Test func aNordicBootloaderOnAUSBPortShowsItsLargerMTU() async throws {
        let path = NordicSerialCLITests.portPath()
        let sim = try NordicSerialCLITests.sim(path, serve: ",usb,baud=1000000")
        defer { _ = NordicSerialCLITests.stop(sim) }
        let run = try await DFURun.awaiting(["info", "--device", "serial:\(path),baud=1000000"], timeout: .seconds(30))
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.contains("link               \(path) at 1000000 baud 8N1, SLIP frames, bootloader MTU 2051 bytes "
            + "(1024 bytes per Write Object)"), "\(run.stdout)")
    }

    /// A port where nothing answers (a pseudo-terminal nobody serves): every question asked until
    /// the connect timeout, then exit 5 naming them and the fixes.
    @Test func aPortWhereNothingAnswersIsUnreachable() async throws {
        let path = NordicSerialCLITests.portPath()
        let terminal = try PseudoTerminal.open(linkedAt: path)
        let run = try await DFURun.awaiting(["info", "--device", "serial:" + path, "--connect-timeout", "2"],
                                            timeout: .seconds(30))
        await terminal.close()
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(run.stderr.contains("nothing on serial:\(path) answered (asked SMP (console), SMP (raw), Nordic Secure DFU at "
            + "115200 baud until the connect timeout)"), "\(run.stderr)")
        #expect(run.stderr.contains("--protocol smp or --protocol nordic"), "\(run.stderr)")
    }
}
