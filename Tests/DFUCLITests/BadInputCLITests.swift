import BlueZStandIn
import DFUCore
import Foundation
import SerialTransport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The rows of docs/bad-input.md that no other test proved through the binary: each runs `dfu` as a
/// user would, with the bad input made here in a temporary folder, and checks the exit code, the
/// words, and what reached the device. "Nothing was sent" is read from `dfu sim --serve udp:
/// --verbose`, which logs every packet it hears.
@Suite(.serialized, .endToEnd) struct BadInputCLITests {
    static let image = FlashCLITests.image
    static let key = FlashCLITests.key

    // MARK: - A device that logs what it hears

    /// What a served device heard during one `dfu` run.
    struct Heard {
        var run: DFURun
        /// The packets the device received (`dfu sim --verbose` stderr lines).
        var packets: [String]
        /// The server's own stdout lines (uploads, resets).
        var events: [String]

        var uploads: [String] { packets.filter { $0.contains("write group 1 (image) command 1 ") } }
    }

    /// `dfu arguments(device)…` against a fresh `dfu sim --serve udp:127.0.0.1:0 --verbose`.
    static func againstServedDevice(_ arguments: (String) -> [String], wrapper: [String] = [],
                                    environment: [String: String] = [:]) throws -> Heard {
        let server = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0", "--verbose"])
        let ready = try #require(server.ready(), "no ready line: \(server.lines)")
        let run = try Self.run(arguments("udp:127.0.0.1:\(ready.port)"), wrapper: wrapper, environment: environment)
        let ended = server.stop()
        let packets = ended.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("dfu: sim: ← ") }
        return Heard(run: run, packets: packets, events: Array(ended.stdoutLines.dropFirst()))
    }

    /// `dfu arguments…`, started through `wrapper` (a command that ends by running its arguments,
    /// such as `setpriv …` or `unshare …`) when one is given.
    static func run(_ arguments: [String], wrapper: [String] = [], environment: [String: String] = [:],
                    timeout: TimeInterval = 60) throws -> DFURun {
        guard let tool = wrapper.first else { return try DFURun.run(arguments, timeout: timeout, environment: environment) }
        let capture = try DFUProcessCapture(arguments, environment: environment)
        let binary = try DFUBinary.location.get()
        capture.process.executableURL = URL(fileURLWithPath: tool)
        capture.process.arguments = Array(wrapper.dropFirst()) + [binary.path] + arguments
        try capture.process.run()
        if ChildExit.wait(capture.process, timeout: timeout) == nil { kill(capture.process.processIdentifier, SIGKILL) }
        return try capture.result()
    }

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-bad-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func sample(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: DFUBinary.repositoryRoot.appendingPathComponent(path)))
    }

    // MARK: - The file

    @Test func aFileSignedWithAnotherKeyIsRefusedAndNothingIsSent() throws {
        let heard = try Self.againstServedDevice { ["flash", Self.image, "--device", $0, "--key", FlashCLITests.otherKey] }
        #expect(heard.run.exitCode == 3, "\(heard.run.output)")
        #expect(heard.run.stderr.contains("signature does not verify with the given key"), "\(heard.run.stderr)")
        #expect(heard.run.stderr.contains("do not flash it"), "\(heard.run.stderr)")
        #expect(heard.packets.isEmpty, "\(heard.packets)")
    }

    /// A download cut short: the sample's first 20,000 of 49,816 bytes.
    @Test func aTruncatedFileIsRefusedAndNothingIsSent() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let truncated = folder.appendingPathComponent("truncated.bin")
        try Data(try Self.sample(Self.image).prefix(20_000)).write(to: truncated)
        let heard = try Self.againstServedDevice { ["flash", truncated.path, "--device", $0, "--key", Self.key] }
        #expect(heard.run.exitCode == 3, "\(heard.run.output)")
        #expect(heard.run.stderr.contains("image is truncated: image body (ih_img_size) needs 49152 bytes at offset 512 "
                                          + "but the file has 19488"), "\(heard.run.stderr)")
        #expect(heard.packets.isEmpty, "\(heard.packets)")
    }

    /// Header and TLV sizes that claim more than the file holds (firmware-samples/broken: 0xFFFF
    /// header bytes, a body longer than the file, a TLV area longer than the file).
    @Test(arguments: [("lying-hdr-size", "padded image header (ih_hdr_size) needs 65535 bytes"),
                      ("lying-img-size", "image body (ih_img_size) needs 49816 bytes"),
                      ("lying-tlv-total", "unprotected TLV area needs 408 bytes")])
    func headerSizesThatLieAreRefusedAndNothingIsSent(sample: String, words: String) throws {
        let file = "firmware-samples/broken/\(sample).bin"
        let heard = try Self.againstServedDevice { ["flash", file, "--device", $0, "--key", Self.key] }
        #expect(heard.run.exitCode == 3, "\(heard.run.output)")
        #expect(heard.run.stderr.contains("image is truncated: \(words)"), "\(heard.run.stderr)")
        #expect(heard.packets.isEmpty, "\(heard.packets)")
    }

    /// Zips made by hand: a central directory that claims 2 GiB for one entry, entries that add
    /// up to 75 MiB, and a real bomb (24 MiB of zeros deflated into 150 kB, declared as 64 bytes).
    /// Each is refused by its sizes without inflating more than the limit, and nothing is sent.
    @Test(arguments: ZipCase.allCases)
    func aZipWithAbsurdEntrySizesIsRefusedAndNothingIsSent(zip: ZipCase) throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("\(zip).zip")
        try Data(zip.bytes).write(to: path)
        let heard = try Self.againstServedDevice { ["flash", path.path, "--device", $0] }
        #expect(heard.run.exitCode == 3, "\(heard.run.output)")
        #expect(heard.run.stderr.contains("dfu: error: cannot read the DFU package: \(zip.words)"), "\(heard.run.stderr)")
        #expect(heard.packets.isEmpty, "\(heard.packets)")
    }

    enum ZipCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case absurdSize, sizesAddUp, deflateBomb

        var testDescription: String { rawValue }

        var words: String {
            switch self {
            case .absurdSize: return "zip entry manifest.json is 2147483647 bytes, more than the 16777216 bytes dfu accepts"
            case .sizesAddUp: return "the zip archive's entries add up to 78643202 bytes, more than the 67108864 bytes dfu accepts"
            case .deflateBomb: return "zip entry manifest.json is 16777217 bytes, more than the 16777216 bytes dfu accepts"
            }
        }

        var bytes: [UInt8] {
            let manifest = Array("{}".utf8)
            switch self {
            case .absurdSize:
                return HandMadeZip.archive([.stored("manifest.json", manifest, declaredSize: 0x7FFF_FFFF)])
            case .sizesAddUp:
                return HandMadeZip.archive([.stored("manifest.json", manifest)]
                    + (0 ..< 5).map { .stored("part\($0).bin", [0x78], declaredSize: 15 * 1024 * 1024) })
            case .deflateBomb:
                return HandMadeZip.archive([.deflated("manifest.json", HandMadeZip.deflatedZeros(24 * 1024 * 1024),
                                                      declaredSize: 64)])
            }
        }
    }

    // MARK: - The host

    /// Whether this machine lets a process make a user and mount namespace of its own (`unshare
    /// -rm`), in which a test can mount a tmpfs or bind a folder over a path without root.
    static let namespacesWork: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["--user", "--map-root-user", "--mount", "true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// `unshare` running `setup` (a shell script, given "$1" = `argument`) then dfu, in a mount
    /// namespace of its own.
    static func inNamespace(_ setup: String, argument: String) -> [String] {
        ["/usr/bin/unshare", "--user", "--map-root-user", "--mount", "/bin/sh", "-c",
         setup + " && shift && exec \"$@\"", "sh", argument]
    }

    /// The host's power supplies as sysfs shows a laptop on battery at 12 %, bound over
    /// /sys/class/power_supply in a namespace of dfu's own. A UDP device (the virtual one is exempt:
    /// it draws no power from the host) is read, then refused before the upload.
    @Test(.enabled(if: namespacesWork, "unshare -rm is not allowed here"))
    func aHostOnBatteryIsRefusedBeforeTheUpload() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (supply, values) in [("BAT0", ["type": "Battery", "status": "Discharging", "capacity": "12"]),
                                 ("AC", ["type": "Mains", "online": "0"])] {
            let directory = folder.appendingPathComponent(supply)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, value) in values { try Data((value + "\n").utf8).write(to: directory.appendingPathComponent(name)) }
        }
        let wrapper = Self.inNamespace("mount --bind \"$1\" /sys/class/power_supply", argument: folder.path)
        let heard = try Self.againstServedDevice({ ["flash", Self.image, "--device", $0, "--key", Self.key] }, wrapper: wrapper)
        #expect(heard.run.exitCode == 4, "\(heard.run.output)")
        #expect(heard.run.stderr.contains("this computer runs on battery (12 %). Plug it in, or pass --allow-host-battery."),
                "\(heard.run.stderr)")
        #expect(!heard.packets.isEmpty, "the device is read before the check")
        #expect(heard.uploads.isEmpty && !heard.events.contains { $0.contains("upload started") }, "\(heard.packets)")
    }

    // MARK: - The serial port

    /// A port the user may not open (mode 000; as root, dfu runs without CAP_DAC_OVERRIDE, as a
    /// user outside the port's group would): exit 5 naming the group to join; nothing opened.
    @Test func aSerialPortThatCannotBeOpenedSaysWhichGroupToJoin() throws {
        let pty = try PseudoTerminal.open()
        let name = pty.devicePath
        #expect(chmod(name, 0) == 0)
        let wrapper = getuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"] : []
        let run = try Self.run(["flash", Self.image, "--device", "serial:\(name)", "--key", Self.key], wrapper: wrapper)
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(run.stderr.contains("dfu: error: permission denied opening \(name)"), "\(run.stderr)")
        #expect(run.stderr.contains("usermod -aG"), "\(run.stderr)")
        #expect(!run.stdout.contains("connected"), "\(run.stdout)")
        withExtendedLifetime(pty) {}
    }

    // MARK: - The journal

    /// A journal a later dfu wrote (a format this one does not know) is set aside, kept for that
    /// dfu, never trusted; the update goes on with a new journal.
    @Test func aJournalOfANewerDfuIsSetAsideAndTheUpdateGoesOn() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let store = JournalStore(directory: state + "/dfu")
        let device = "sim:timescale=0"
        let newer = #"{"format":"dfu-journal/3","device":"sim:timescale=0","status":"unfinished"}"#
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try newer.write(toFile: store.path(for: device), atomically: true, encoding: .utf8)

        let run = try DFURun.run(["flash", Self.image, "--device", device, "--key", Self.key], timeout: 30,
                                 environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("warning: the update journal \(store.path(for: device)) cannot be used (it is a journal "
                                    + "of another format ('dfu-journal/3'; this dfu writes 'dfu-journal/2')); moved it to "),
                "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory)
        let setAside = try #require(names.first { $0.contains(".json.set-aside-") }, "\(names)")
        #expect(try String(contentsOfFile: store.directory + "/" + setAside, encoding: .utf8) == newer)
        #expect(store.journal(for: device).journal?.status == .done)
    }

    /// Where the journal directory should be stands a file: the journal cannot be written, dfu
    /// says so once and the update goes on (the device, not the journal, holds the progress).
    @Test func aJournalThatCannotBeWrittenIsWarnedAboutAndTheUpdateGoesOn() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try Data().write(to: URL(fileURLWithPath: state + "/dfu"))
        let run = try DFURun.run(["flash", Self.image, "--device", "sim:timescale=0", "--key", Self.key], timeout: 30,
                                 environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr == "warning: cannot write the update journal \(state)/dfu/sim-timescale-0.C3EEFB0CBC0459DE.json: "
                + "Not a directory; the update goes on, but 'dfu resume' will not know of it\n", "\(run.stderr)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true, "\(run.stdout)")
    }

    /// A full disk: the journal directory on a 4 KiB tmpfs filled to the last byte, mounted in a
    /// namespace of dfu's own. Writing fails with ENOSPC; dfu warns and the update goes on.
    @Test(.enabled(if: namespacesWork, "unshare -rm is not allowed here"))
    func aFullDiskWhereTheJournalGoesIsWarnedAboutAndTheUpdateGoesOn() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wrapper = Self.inNamespace("mount -t tmpfs -o size=4k tmpfs \"$1\" && { head -c 65536 /dev/zero > \"$1/fill\" "
                                       + "2> /dev/null; df \"$1\" | grep -q ' 100% '; }", argument: folder.path)
        let run = try Self.run(["flash", Self.image, "--device", "sim:timescale=0", "--key", Self.key], wrapper: wrapper,
                               environment: ["XDG_STATE_HOME": folder.path])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stderr.contains("warning: cannot write the update journal \(folder.path)/dfu/"), "\(run.stderr)")
        #expect(run.stderr.contains(": No space left on device; the update goes on, but 'dfu resume' will not know of it"),
                "\(run.stderr)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true, "\(run.stdout)")
    }
}
