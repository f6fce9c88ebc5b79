import Testing
@testable import DFUCore
import NordicTestSupport

@Suite("Nordic manifest.json")
struct NordicManifestTests {
    private func manifest(_ json: String) throws(NordicPackageError) -> NordicManifest {
        try NordicManifest(json: Array(json.utf8))
    }

    private func reason(_ json: String) -> String? {
        do {
            _ = try manifest(json)
            return nil
        } catch {
            if case .manifestInvalid(let reason) = error { return reason }
            return "\(error)"
        }
    }

    @Test func readsPartsInUpdateOrderIgnoringUnknownKeys() throws {
        let parsed = try manifest("""
            {"manifest": {"application": {"bin_file": "app.bin", "dat_file": "app.dat", "future": 1},
                          "softdevice_bootloader": {"bin_file": "sd_bl.bin", "dat_file": "sd_bl.dat",
                              "info_read_only_metadata": {"bl_size": 24576, "sd_size": 100000}},
                          "comment": "x"}, "version": 2}
            """)
        #expect(parsed.parts.map(\.kind) == [.softdeviceBootloader, .application])
        #expect(parsed.parts[0].bootloaderSize == 24576)
        #expect(parsed.parts[0].softdeviceSize == 100000)
        #expect(parsed.parts[1].binFile == "app.bin")
        #expect(parsed.parts[1].datFile == "app.dat")
    }

    @Test func nullPartsAreAbsent() throws {
        let parsed = try manifest(#"{"manifest": {"bootloader": null, "application": {"bin_file": "a", "dat_file": "b"}}}"#)
        #expect(parsed.parts.map(\.kind) == [.application])
    }

    @Test func refusesManifestsThatNameNoUsableFirmware() {
        #expect(reason("not json") == "it is not valid JSON")
        #expect(reason("[]") == "the top level has the wrong type")
        #expect(reason("{}") == "the top level has no \"manifest\"")
        #expect(reason(#"{"manifest": {}}"#)?.contains("names no firmware") == true)
        #expect(reason(#"{"manifest": {"application": {"bin_file": "a"}}}"#) == "manifest.application has no \"dat_file\"")
        #expect(reason(#"{"manifest": {"application": {"bin_file": 3, "dat_file": "b"}}}"#) == "manifest.application.bin_file has the wrong type")
        #expect(reason(String(repeating: " ", count: 70_000) + "{}")?.contains("more than the 65536") == true)
    }

    @Test func packageWithoutManifestOrWithMissingFileIsRefused() throws {
        let noManifest = TestZip(files: [("app.bin", "x")]).bytes
        #expect(throws: NordicPackageError.manifestMissing) { try NordicPackage(zipBytes: noManifest) }
        let missingDat = TestZip(files: [("manifest.json", #"{"manifest": {"application": {"bin_file": "app.bin", "dat_file": "app.dat"}}}"#),
                                         ("app.bin", "x")]).bytes
        #expect(throws: NordicPackageError.missingFile(name: "app.dat", part: .application)) { try NordicPackage(zipBytes: missingDat) }
    }

    @Test func initPacketTypeMustMatchTheManifestKey() throws {
        let dat = try NordicSamples.initPacket(signed: true)
        let zip = TestZip([.init("manifest.json", Array(#"{"manifest": {"bootloader": {"bin_file": "b.bin", "dat_file": "b.dat"}}}"#.utf8)),
                           .init("b.bin", [1, 2, 3, 4]), .init("b.dat", dat)]).bytes
        #expect(throws: NordicPackageError.typeMismatch(part: .bootloader, initType: "APPLICATION")) { try NordicPackage(zipBytes: zip) }
    }
}
