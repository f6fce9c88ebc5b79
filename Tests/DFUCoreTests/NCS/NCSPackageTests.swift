import Testing
@testable import DFUCore
import NordicTestSupport

/// nRF Connect SDK zips read and verified: the committed samples (firmware-samples/ncs, made by
/// generate.sh with imgtool 2.5.0) and hand-built zips for what no build writes.
@Suite("NCS dfu_application.zip")
struct NCSPackageTests {
    private func package(_ name: String) throws -> NCSPackage {
        try NCSPackage(zipBytes: Samples.bytes("ncs/\(name)"))
    }

    private func refusal(_ bytes: [UInt8]) -> NCSPackageError? {
        do {
            _ = try NCSPackage(zipBytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    /// A zip of `manifest` and `files` (name, bytes).
    private func zip(manifest: String, _ files: [(String, [UInt8])] = []) -> [UInt8] {
        TestZip(files.map { TestZip.Entry($0.0, $0.1) } + [TestZip.Entry("manifest.json", Array(manifest.utf8))]).bytes
    }

    @Test func twoImageZipListsAppThenNetCoreWithTheirImageIndexes() throws {
        let package = try package("nrf5340-1.1.0.zip")
        #expect(package.images.map(\.file) == ["blinky.signed.bin", "ipc_radio.bin"])
        #expect(package.images.map(\.imageIndex) == [0, 1])
        #expect(package.images.map(\.role.core) == [.application, .network])
        #expect(package.images.allSatisfy { $0.bytes.count == $0.entry.size })
    }

    @Test func everyGoodSampleVerifiesWithTheKey() throws {
        let key = try Samples.key("ecdsa-p256")
        for name in ["app-1.1.0.zip", "nrf5340-1.1.0.zip", "direct-xip-1.1.0.zip", "legacy-app_update-1.0.0.zip"] {
            let report = NCSPackageVerifier.verify(try package(name), key: key)
            #expect(report.passed, "\(name): \(String(describing: report.firstFailure))")
            for image in report.images {
                let checks = try image.result.get()
                #expect(checks.hash == .passed && checks.signature == .passed && checks.keyHash == .passed)
                #expect(checks.version.description == image.entry.statedVersion?.value)
            }
        }
    }

    @Test func directXIPZipHasOneVariantPerSlotOfImageZero() throws {
        let package = try package("direct-xip-1.1.0.zip")
        #expect(package.images.map(\.imageIndex) == [0, 0])
        #expect(package.images.map(\.role.directXIP) == [.primary(slot: 0), .secondary(slot: 1)])
    }

    @Test func aTamperedSecondImageFailsTheZipNamingIt() throws {
        let report = NCSPackageVerifier.verify(try package("broken/tampered-net-core.zip"), key: nil)
        #expect(report.images[0].firstFailure == nil)
        guard case .image(let file, let index, .hashMismatch)? = report.firstFailure else {
            Issue.record("expected a hash mismatch, got \(String(describing: report.firstFailure))")
            return
        }
        #expect(file == "ipc_radio.bin" && index == 1)
    }

    @Test func theOtherKeyFailsOnlyTheImageItSigned() throws {
        let report = NCSPackageVerifier.verify(try package("broken/net-core-other-key.zip"), key: try Samples.key("ecdsa-p256"))
        #expect(report.images[0].firstFailure == nil)
        #expect(report.images[1].firstFailure == .signatureInvalid(algorithm: "ECDSA P-256"))
        #expect(!report.passed)
    }

    @Test func brokenSamplesAreRefusedWithTheirReason() throws {
        #expect(refusal(try Samples.bytes("ncs/broken/missing-file.zip")) == .missingFile(name: "ipc_radio.bin"))
        guard case .archive(.unsafeEntryName(let name, _))? = refusal(try Samples.bytes("ncs/broken/path-traversal.zip")) else {
            Issue.record("path traversal not refused")
            return
        }
        #expect(name == "../evil.bin")
        guard case .sizeMismatch(let file, let declared, let actual)? = refusal(try Samples.bytes("ncs/broken/size-mismatch.zip")) else {
            Issue.record("size mismatch not refused")
            return
        }
        #expect(file == "blinky.signed.bin" && declared == actual + 16)
    }

    @Test func aZipWithoutManifestIsNotAnNCSZip() {
        #expect(refusal(TestZip(files: [("app.bin", "x")]).bytes) == .manifestMissing)
    }

    @Test func aNonImageEntryIsReportedNotThrown() throws {
        let bytes = zip(manifest: NCSManifestTests.single().replacingOccurrences(of: #""size": 100"#, with: #""size": 5"#),
                        [("app.signed.bin", Array("hello".utf8))])
        let report = NCSPackageVerifier.verify(try NCSPackage(zipBytes: bytes), key: nil)
        guard case .failure = report.images[0].result, case .image("app.signed.bin", 0, _)? = report.firstFailure else {
            Issue.record("a five-byte image passed: \(report.images[0].result)")
            return
        }
    }

    @Test func suitAndB0EntriesAreRefusedAsNotMCUbootUpdates() {
        let suit = NCSManifestTests.single().replacingOccurrences(of: #""type": "application""#, with: #""type": "suit-envelope""#)
        #expect(refusal(zip(manifest: suit, [("app.signed.bin", [UInt8](repeating: 0, count: 100))]))
            == .unsupportedType(file: "app.signed.bin", type: "suit-envelope"))
        let b0 = NCSManifestTests.single(#""version_B0": "2""#)
        #expect(refusal(zip(manifest: b0, [("app.signed.bin", [UInt8](repeating: 0, count: 100))])) == .notMCUboot(file: "app.signed.bin"))
        #expect(NCSPackageError.unsupportedType(file: "a", type: "cache").description.contains("a SUIT update"))
    }

    @Test func twoEntriesForOneImageWithoutSlotsAreAmbiguous() {
        let entry = #"{"type": "application", "board": "b", "soc": "s", "size": 1, "modtime": 1, "image_index": "0", "file": ""#
        let manifest = #"{"format-version": 1, "time": 1, "files": ["# + entry + #"a.bin"}, "# + entry + #"b.bin"}]}"#
        #expect(refusal(zip(manifest: manifest, [("a.bin", [1]), ("b.bin", [2])])) == .ambiguousImage(index: 0, files: ["a.bin", "b.bin"]))
        let same = #"{"format-version": 1, "time": 1, "files": ["# + entry + #"a.bin"}, "# + entry + #"a.bin"}]}"#
        #expect(refusal(zip(manifest: same, [("a.bin", [1])])) == .duplicateFile(name: "a.bin"))
    }

    @Test func bootloaderEntriesNameTheirSlotNotADirectXIPVariant() throws {
        let entry = #"{"type": "mcuboot", "board": "b", "soc": "s", "size": 1, "modtime": 1, "file": ""#
        let manifest = #"{"format-version": 1, "time": 1, "files": ["# + entry + #"s0.bin", "slot": "0"}, "# + entry + #"s1.bin"}]}"#
        let package = try NCSPackage(zipBytes: zip(manifest: manifest, [("s0.bin", [1]), ("s1.bin", [2])]))
        #expect(package.images.map(\.role.description) == ["MCUboot (bootloader), for bootloader slot 0", "MCUboot (bootloader)"])
        #expect(package.images.allSatisfy { $0.role.directXIP == nil })
    }

    @Test func imagesAreFoundByTheirImageIndex() throws {
        let package = try package("nrf5340-1.1.0.zip")
        #expect(package.imageIndexes == [0, 1])
        #expect(package.images(forImageIndex: 1).map(\.file) == ["ipc_radio.bin"])
        #expect(try self.package("direct-xip-1.1.0.zip").images(forImageIndex: 0).count == 2)
        #expect(package.images(forImageIndex: 7).isEmpty)
    }

    @Test func aManifestVersionThatDiffersFromTheHeaderIsToldNotRefused() throws {
        let image = try Samples.image("blinky-ecdsa-p256-1.1.0.signed.bin")
        let manifest = NCSManifestTests.single(#""version_MCUBOOT": "1.2.0+0""#)
            .replacingOccurrences(of: #""size": 100"#, with: #""size": \#(image.count)"#)
        let report = NCSPackageVerifier.verify(try NCSPackage(zipBytes: zip(manifest: manifest, [("app.signed.bin", image)])), key: nil)
        #expect(report.passed)
        #expect(report.images[0].manifestVersionAgrees == false)
        let plain = NCSManifestTests.single(#""version": "3""#).replacingOccurrences(of: #""size": 100"#, with: #""size": \#(image.count)"#)
        #expect(NCSPackageVerifier.verify(try NCSPackage(zipBytes: zip(manifest: plain, [("app.signed.bin", image)])), key: nil)
            .images[0].manifestVersionAgrees == nil)
        #expect(NCSPackageVerifier.verify(try package("app-1.1.0.zip"), key: nil).images[0].manifestVersionAgrees == true)
    }

    @Test func aManifestNamingAPathOutsideTheZipIsMissing() {
        let manifest = NCSManifestTests.single().replacingOccurrences(of: "app.signed.bin", with: "../app.signed.bin")
        #expect(refusal(zip(manifest: manifest, [("app.signed.bin", [UInt8](repeating: 0, count: 100))]))
            == .missingFile(name: "../app.signed.bin"))
    }

    @Test func hostileArchiveSizesAreRefusedBeforeReading() {
        let lying = TestZip([TestZip.Entry("app.signed.bin", [1, 2, 3], declaredSize: UInt32.max),
                             TestZip.Entry("manifest.json", Array(NCSManifestTests.single().utf8))]).bytes
        guard case .archive? = refusal(lying) else {
            Issue.record("a 4 GiB declared entry was not refused by the archive reader")
            return
        }
    }

    @Test func kindIsToldByTheManifestNotTheName() throws {
        #expect(UpdateFileKind(of: try Samples.bytes("ncs/app-1.1.0.zip")) == .ncsPackage)
        #expect(UpdateFileKind(of: try Samples.bytes("ncs/broken/path-traversal.zip")) == .ncsPackage)
        #expect(UpdateFileKind(of: try Samples.bytes("nordic/app-signed-3.zip")) == .nordicPackage)
        #expect(UpdateFileKind(of: try Samples.image("blinky-ecdsa-p256-1.1.0.signed.bin")) == .mcubootImage)
        #expect(UpdateFileKind(of: TestZip(files: [("manifest.json", "{}")]).bytes) == .nordicPackage)
    }
}
