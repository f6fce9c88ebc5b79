import Testing
@testable import DFUCore
import NordicTestSupport

@Suite("Zip archive reader")
struct ZipArchiveTests {
    @Test func listsAndReadsEntriesInDirectoryOrder() throws {
        let zip = TestZip(files: [("manifest.json", "{}"), ("app.bin", "firmware"), ("dir/app.dat", "init")])
        let archive = try ZipArchive(bytes: zip.bytes)
        #expect(archive.names == ["manifest.json", "app.bin", "dir/app.dat"])
        #expect(archive.entry(named: "app.bin")?.bytes == Array("firmware".utf8))
        #expect(archive.entry(named: "nope") == nil)
    }

    @Test func readsAPackageNrfutilWrote() throws {
        let archive = try ZipArchive(bytes: Samples.bytes("nordic/app-signed-3.zip"))
        #expect(Set(archive.names) == ["blinky.bin", "blinky.dat", "manifest.json"])
        #expect(archive.entry(named: "blinky.bin")?.bytes.count == 49152)
    }

    @Test(arguments: [
        ("../evil.txt", "'..' component"), ("a/../../evil", "'..' component"), ("/etc/passwd", "absolute path"),
        ("dir\\file.bin", "backslash"), ("C:/boot.bin", "drive letter"), ("", "empty"),
    ])
    func refusesUnsafeNames(name: String, reason: String) throws {
        let zip = TestZip(files: [("manifest.json", "{}"), (name, "x")])
        #expect {
            try ZipArchive(bytes: zip.bytes)
        } throws: { error in
            guard case ArchiveError.unsafeEntryName(_, let why) = error else { return false }
            return why.contains(reason)
        }
    }

    /// libzip reports this name as "app.bin evil" (NUL made a space); dfu sees the stored bytes.
    @Test func refusesNameWithNULAndShowsItEscaped() throws {
        let zip = TestZip([.init(rawName: Array("app.bin".utf8) + [0] + Array("evil".utf8), [1, 2, 3])])
        #expect(throws: ArchiveError.unsafeEntryName(name: "app.bin\\x00evil", reason: "it contains a NUL byte")) {
            try ZipArchive(bytes: zip.bytes)
        }
    }

    @Test func refusesDuplicateNames() throws {
        let zip = TestZip(files: [("app.bin", "one"), ("app.bin", "two")])
        #expect(throws: ArchiveError.duplicateEntry(name: nil)) { try ZipArchive(bytes: zip.bytes) }
    }

    @Test func boundsTheEntryCountBeforeReading() throws {
        let zip = TestZip(files: (0 ..< 5).map { ("f\($0)", "x") })
        let limits = ZipLimits(maximumEntryCount: 4, maximumEntrySize: 100, maximumTotalSize: 1000)
        #expect(throws: ArchiveError.tooManyEntries(count: 5, limit: 4)) { try ZipArchive(bytes: zip.bytes, limits: limits) }
    }

    @Test func boundsEachDeclaredSizeAndTheTotal() throws {
        let zip = TestZip(files: [("a", String(repeating: "x", count: 60)), ("b", String(repeating: "y", count: 60))])
        let small = ZipLimits(maximumEntryCount: 4, maximumEntrySize: 50, maximumTotalSize: 1000)
        #expect(throws: ArchiveError.entryTooLarge(name: "a", size: 60, limit: 50)) { try ZipArchive(bytes: zip.bytes, limits: small) }
        let total = ZipLimits(maximumEntryCount: 4, maximumEntrySize: 100, maximumTotalSize: 100)
        #expect(throws: ArchiveError.archiveTooLarge(size: 120, limit: 100)) { try ZipArchive(bytes: zip.bytes, limits: total) }
    }

    /// An entry that declares fewer bytes than it holds is caught (libzip or dfu's own size check), never
    /// read past its limit.
    @Test func refusesEntryWhoseDeclaredSizeLies() throws {
        let zip = TestZip([.init("a", Array(repeating: 7, count: 40), declaredSize: 10)])
        #expect(throws: ArchiveError.self) { try ZipArchive(bytes: zip.bytes) }
    }

    @Test(arguments: [0, 1, 21, 22, 100])
    func refusesBytesThatAreNotAZip(count: Int) throws {
        let bytes = [UInt8](repeating: 0x41, count: count)
        #expect {
            try ZipArchive(bytes: bytes)
        } throws: { error in
            guard case ArchiveError.notAZip = error else { return false }
            return (error as? ArchiveError)?.description.contains("Pass the .zip package") == true
        }
    }

    @Test func truncatedZipSaysItWasCutShort() throws {
        let bytes = try Samples.bytes("nordic/app-signed-3.zip")
        #expect {
            try ZipArchive(bytes: Array(bytes.prefix(bytes.count / 2)))
        } throws: { error in
            guard case ArchiveError.damaged(let reason) = error else { return false }
            return reason.contains("cut short")
        }
    }

    /// Every prefix and a few corrupted copies of a real package: an error or an archive, never a trap.
    @Test func cutOrCorruptedArchivesNeverTrap() throws {
        let bytes = try Samples.bytes("nordic/app-unsigned-3.zip")
        for length in stride(from: 0, through: bytes.count, by: 97) {
            _ = try? ZipArchive(bytes: Array(bytes.prefix(length)))
            _ = try? NordicPackage(zipBytes: Array(bytes.prefix(length)))
        }
        var random = SplitMix64(seed: 9)
        for _ in 0 ..< 200 {
            var copy = bytes
            for _ in 0 ..< 4 { copy[random.next(below: copy.count)] = UInt8(truncatingIfNeeded: random.next()) }
            _ = try? ZipArchive(bytes: copy)
            _ = try? NordicPackage(zipBytes: copy)
        }
    }

    @Test func looksLikeZipByMagicNotName() {
        #expect(ZipArchive.looksLikeZip([0x50, 0x4B, 0x03, 0x04, 0]))
        #expect(ZipArchive.looksLikeZip([0x50, 0x4B, 0x05, 0x06]))
        #expect(!ZipArchive.looksLikeZip([0x3D, 0xB8, 0xF3, 0x96]))
        #expect(!ZipArchive.looksLikeZip([]))
    }
}
