import Testing
@testable import DFUCore
import NordicTestSupport

/// Seeded mutations of real NCS zips and manifests: whatever the bytes, reading and verifying ends in a
/// report or an error, never a trap, and a mutated image never passes unnoticed.
@Suite("NCS zip robustness")
struct NCSRobustnessTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func mutatedZipBytesNeverTrap(seed: UInt64) throws {
        let original = try Samples.bytes("ncs/nrf5340-1.1.0.zip")
        var random = SplitMix64(seed: seed)
        for _ in 0 ..< 150 {
            var bytes = original
            for _ in 0 ... random.next(below: 4) {
                let at = random.next(below: bytes.count)
                bytes[at] ^= UInt8(truncatingIfNeeded: 1 + random.next(below: 255))
            }
            if random.next(below: 8) == 0 { bytes = Array(bytes.prefix(random.next(below: bytes.count))) }
            _ = UpdateFileKind(of: bytes)
            guard let package = try? NCSPackage(zipBytes: bytes) else { continue }
            _ = NCSPackageVerifier.verify(package, key: nil)
        }
    }

    /// Every byte of the manifest text replaced in turn, and spans cut out: a report or an error.
    @Test func mutatedManifestsNeverTrap() {
        let text = Array(NCSManifestTests.nrf5340.utf8)
        let alphabet = Array(#"{}[]",:0x-9e."#.utf8)
        var random = SplitMix64(seed: 7)
        for _ in 0 ..< 1500 {
            var json = text
            let at = random.next(below: json.count)
            switch random.next(below: 3) {
            case 0: json[at] = alphabet[random.next(below: alphabet.count)]
            case 1: json.removeSubrange(at ..< min(json.count, at + 1 + random.next(below: 40)))
            default: json.insert(contentsOf: Array(#"{"a":[1,"2"]}"#.utf8), at: at)
            }
            _ = try? NCSManifest(json: json)
            _ = NCSManifest.describesNCSPackage(json: json)
        }
    }

    /// One body byte flipped in an image, the zip rebuilt with correct CRCs (so the archive reader
    /// cannot be what notices): the image's hash fails, and with it the zip.
    @Test func aFlippedBodyByteFailsTheZip() throws {
        let original = try Samples.bytes("ncs/nrf5340-1.1.0.zip")
        let package = try NCSPackage(zipBytes: original)
        let manifest = try #require(try ZipArchive(bytes: original).entry(named: "manifest.json")).bytes
        var random = SplitMix64(seed: 11)
        for _ in 0 ..< 40 {
            var images = package.images.map(\.bytes)
            let which = random.next(below: images.count)
            let header = try MCUbootImage(bytes: images[which]).header
            images[which][header.headerSize + random.next(below: header.imageSize)] ^= UInt8(1 << random.next(below: 8))
            let zip = TestZip(zip(package.images, images).map { TestZip.Entry($0.0.file, $0.1) } + [TestZip.Entry("manifest.json", manifest)])
            let rebuilt = try NCSPackage(zipBytes: zip.bytes)
            let report = NCSPackageVerifier.verify(rebuilt, key: nil)
            guard case .image(let file, _, .hashMismatch)? = report.firstFailure else {
                Issue.record("a flipped body byte of image \(which) was not a hash mismatch: \(String(describing: report.firstFailure))")
                continue
            }
            #expect(file == package.images[which].file)
        }
    }
}
