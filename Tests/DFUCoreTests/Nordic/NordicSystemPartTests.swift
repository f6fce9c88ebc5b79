import Testing
@testable import DFUCore
import NordicTestSupport

/// A SoftDevice + bootloader part, built here because nrfutil makes one only from a real SoftDevice hex:
/// its size check is sd_size + bl_size against the combined .bin, and against the manifest's split.
@Suite("Nordic SoftDevice + bootloader part")
struct NordicSystemPartTests {
    /// Packet.command { op_code INIT, init { type SD_BL, sd_size, bl_size, hash { SHA256, reversed } } }.
    private func initPacket(firmware: [UInt8], sdSize: UInt8, blSize: UInt8) throws -> [UInt8] {
        let reversed = Array(try SHA256.hash(firmware).reversed())
        let hash: [UInt8] = [0x08, 0x03, 0x12, 0x20] + reversed
        let initCommand: [UInt8] = [0x20, 0x03, 0x28, sdSize, 0x30, blSize, 0x42, UInt8(hash.count)] + hash
        let command: [UInt8] = [0x08, 0x01, 0x12, UInt8(initCommand.count)] + initCommand
        return [0x0A, UInt8(command.count)] + command
    }

    private func package(sdSize: UInt8, blSize: UInt8, manifestSD: Int, manifestBL: Int) throws -> NordicPackage {
        let firmware = [UInt8](repeating: 0xA5, count: 100)
        let manifest = """
            {"manifest": {"application": {"bin_file": "app.bin", "dat_file": "app.dat"},
             "softdevice_bootloader": {"bin_file": "sd_bl.bin", "dat_file": "sd_bl.dat",
               "info_read_only_metadata": {"bl_size": \(manifestBL), "sd_size": \(manifestSD)}}}}
            """
        let app = [UInt8](repeating: 1, count: 8)
        let appInit: [UInt8] = {
            let hash: [UInt8] = [0x08, 0x03, 0x12, 0x20] + Array(((try? SHA256.hash(app)) ?? []).reversed())
            let initCommand: [UInt8] = [0x20, 0x00, 0x38, 0x08, 0x42, UInt8(hash.count)] + hash
            let command: [UInt8] = [0x08, 0x01, 0x12, UInt8(initCommand.count)] + initCommand
            return [0x0A, UInt8(command.count)] + command
        }()
        let zip = TestZip([.init("app.bin", app), .init("app.dat", appInit), .init("manifest.json", Array(manifest.utf8)),
                           .init("sd_bl.bin", firmware), .init("sd_bl.dat", try initPacket(firmware: firmware, sdSize: sdSize, blSize: blSize))])
        return try NordicPackage(zipBytes: zip.bytes)
    }

    @Test func systemPartComesFirstAndItsSizesAddUp() throws {
        let package = try package(sdSize: 60, blSize: 40, manifestSD: 60, manifestBL: 40)
        #expect(package.images.map(\.kind) == [.softdeviceBootloader, .application])
        let report = try NordicPackageVerifier.verify(package, key: nil, allowUnsigned: false)
        #expect(report.passed, "\(String(describing: report.firstFailure))")
        #expect(report.images.first?.softdeviceSize == 60 && report.images.first?.bootloaderSize == 40)
    }

    @Test func sizesThatDoNotAddUpOrDisagreeWithTheManifestFail() throws {
        let short = try NordicPackageVerifier.verify(package(sdSize: 60, blSize: 30, manifestSD: 60, manifestBL: 30),
                                                     key: nil, allowUnsigned: false)
        #expect(short.firstFailure == .sizeMismatch(part: .softdeviceBootloader,
                                                    reason: "the init packet's sd_size 60 + bl_size 30 is not the 100 bytes of sd_bl.bin"))
        let split = try NordicPackageVerifier.verify(package(sdSize: 60, blSize: 40, manifestSD: 50, manifestBL: 50),
                                                     key: nil, allowUnsigned: false)
        #expect(split.firstFailure == .sizeMismatch(part: .softdeviceBootloader,
                                                    reason: "manifest.json splits it as sd_size 50 + bl_size 50, the init packet as 60 + 40"))
    }
}
