import Foundation
import NordicTestSupport
import Testing

/// `dfu flash` of an application larger than an nRF52832 has room for, as a user runs it against
/// the virtual nRF52 with `chip=`: an nRF52840 takes it, the default nRF52832 refuses its init
/// packet (INSUFFICIENT RESOURCES, as the SDK's `update_data_addr_get` answers) and dfu says that
/// the image does not fit the device's flash.
@Suite(.serialized, .endToEnd) struct NordicChipCLITests {
    /// 400 KiB: more than the 316 KiB an nRF52832 or nRF52833 takes, well within an nRF52840's 824 KiB.
    static let firmware: [UInt8] = (0 ..< 400 * 1024).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }

    /// An application package for `firmware`, fw_version 3, signed with the test key, for either
    /// SoftDevice (S132 7.2.0 on the nRF52832, S140 7.2.0 on the nRF52840), as
    /// `nrfutil pkg generate --sd-req 0x0101,0x0100` makes it.
    static func package() throws -> NordicTestPackage {
        var initPacket = NordicTestInitPacket(firmware: firmware)
        initPacket.sdReq = [0x0101, 0x0100]
        return NordicTestPackage([.init(kind: "application", firmware: firmware, initPacket: try initPacket.signed())])
    }

    static func flash(chip: String?, _ extra: [String] = []) throws -> DFURun {
        let device = "sim:protocol=nordic,timescale=0,inactivity=off" + (chip.map { ",chip=" + $0 } ?? "")
        return try package().withFile(named: "big-app.zip") { path in
            try DFURun.run(["flash", path, "--device", device, "--key", NordicFlashCLITests.key] + extra, timeout: 120)
        }
    }

    @Test func aFourHundredKilobyteApplicationIsFlashedOntoAnNRF52840() throws {
        let run = try Self.flash(chip: "nrf52840", ["--expect-version", "0.0.3"])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("image checked: big-app.zip application fw_version 3, 409.6 kB"), "\(run.stdout)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: application fw_version 3 activated on ") == true, "\(run.stdout)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func theSameApplicationDoesNotFitTheDefaultNRF52832AndIsExit7() throws {
        let run = try Self.flash(chip: nil)
        #expect(run.exitCode == 7, "\(run.output)")
        #expect(run.stderr.contains("the bootloader has no room for this update: insufficient resources (0x04)"), "\(run.stderr)")
        #expect(run.stderr.contains("does not fit the device's free flash"), "\(run.stderr)")
        // Not the advice for a refused signature or version.
        #expect(!run.stderr.contains("signing key"), "\(run.stderr)")
        #expect(!run.stdout.contains("OK:"), "\(run.stdout)")
    }
}
