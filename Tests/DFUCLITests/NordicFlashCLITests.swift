import Foundation
import Testing

/// `dfu flash PKG.zip` and `dfu info` as a user runs them against the built-in virtual nRF52
/// (`sim:protocol=nordic`): an application with buttonless DFU whose bootloader answers at the
/// address + 1. Unpaced (`timescale=0`), with the bootloader's inactivity timer off (an idle unpaced
/// link jumps to the next deadline).
@Suite(.serialized, .endToEnd) struct NordicFlashCLITests {
    static let package = "firmware-samples/nordic/app-signed-3.zip"
    static let key = "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.pem"
    static let otherKey = "firmware-samples/nordic/keys/TEST-ONLY-nordic-other-p256.pub.pem"

    static func flash(_ extra: [String] = [], sim: String = "", package: String = package,
                      key: String? = key) throws -> DFURun {
        let device = "sim:protocol=nordic,timescale=0,inactivity=off" + (sim.isEmpty ? "" : "," + sim)
        return try DFURun.run(["flash", package, "--device", device] + (key.map { ["--key", $0] } ?? []) + extra,
                              timeout: 30)
    }

    @Test func flashesTheVirtualNRF52ThroughItsBootloader() throws {
        let run = try Self.flash(["--expect-version", "0.0.3"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("image checked: app-signed-3.zip application fw_version 3, 49.2 kB, ECDSA P-256 signature ok"))
        #expect(run.stdout.contains("version 0.0.1 → application fw_version 3"))
        #expect(!run.stdout.contains("marked for test"), "the final Execute is the activation")
        #expect(run.stdoutLines.last?.hasPrefix("OK: application fw_version 3 activated on ") == true, "\(run.stdout)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    /// Packets the bootloader drops (its buffers full) are sent again, and the user is told why
    /// the update was slower, with the usual Linux cause.
    @Test func packetsTheBootloaderDroppedAreResentWithAWarning() throws {
        let run = try Self.flash(["--expect-version", "0.0.3"], sim: "prn_drop=5+40")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.output.contains("checksums showed packets lost or out of order"), "\(run.output)")
        #expect(run.output.contains("Channels=1"), "\(run.output)")
    }

    @Test func jsonNamesTheStagesAndTheResult() throws {
        let run = try Self.flash(["--json", "--prn", "12"])
        #expect(run.exitCode == 0, "\(run.output)")
        let lines = run.stdoutLines
        #expect(lines.contains { $0.contains(#""event":"image""#) && $0.contains(#""version":"application fw_version 3""#) })
        #expect(lines.contains { $0.contains(#""stage":"transfer""#) && $0.contains(#""status":"finished""#) })
        #expect(lines.last?.contains(#""event":"result""#) == true)
        #expect(lines.last?.contains(#""exit_code":0"#) == true, "\(lines.last ?? "")")
    }

    @Test func aBootloaderWithAnotherKeyRejectsTheInitPacket() throws {
        let run = try Self.flash(sim: "key=" + Self.otherKey)
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("the bootloader rejected the init packet"), "\(run.stderr)")
    }

    @Test func anOlderPackageIsRefusedBeforeTheTransferUnlessAllowed() throws {
        let refused = try Self.flash(sim: "version=1.0.0")
        #expect(refused.exitCode == 4, "\(refused.output)")
        #expect(!refused.stdout.contains("uploading"))
        // Allowed here, the bootloader's own downgrade prevention still says no.
        let allowed = try Self.flash(["--allow-downgrade"], sim: "version=1.0.0")
        #expect(allowed.exitCode == 7, "\(allowed.output)")
        #expect(allowed.stderr.contains("FW VERSION TOO LOW"), "\(allowed.stderr)")
    }

    @Test(arguments: ["flipped-signature-byte", "flipped-firmware-byte", "garbage-init-packet", "truncated"])
    func aBrokenPackageIsRefusedBeforeAnythingIsConnected(name: String) throws {
        let run = try Self.flash(package: "firmware-samples/nordic/broken/\(name).zip")
        #expect(run.exitCode == 3, "\(run.output)")
        #expect(!run.stdout.contains("connected"))
    }

    @Test func aBootloaderNameThatIsTooLongIsAUsageError() throws {
        let run = try Self.flash(["--bootloader-name", String(repeating: "x", count: 21)])
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("--bootloader-name"))
    }

    @Test func theApplicationMustReportTheExpectedVersion() throws {
        let run = try Self.flash(["--expect-version", "2.0.0"])
        #expect(run.exitCode == 8, "\(run.output)")
        #expect(run.stderr.contains("not 2.0.0"), "\(run.stderr)")
    }

    @Test func infoShowsTheApplicationAndItsButtonlessVariant() throws {
        let run = try DFURun.run(["info", "--device", "sim:protocol=nordic,timescale=0,inactivity=off"], timeout: 30)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("Nordic Secure DFU: application with buttonless DFU"))
        #expect(run.stdout.contains("firmware revision  0.0.1"))
        let json = try DFURun.run(["info", "--device", "sim:protocol=nordic,timescale=0,inactivity=off", "--json"], timeout: 30)
        #expect(json.stdout.contains(#""protocol":"nordic""#))
        #expect(json.stdout.contains(#""role":"buttonless-application""#))
    }
}
