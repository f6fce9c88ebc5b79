import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import DFUCore

/// Every file dfu is given is read by `InputFile`, and every refusal is said in dfu's words.
@Suite struct InputFileTests {
    @Test(arguments: [(ENOENT, "no such file"), (EACCES, "permission denied"), (EPERM, "permission denied"),
                      (EISDIR, "it is a directory"), (ENOTDIR, "a part of the path is a file, not a directory"),
                      (ELOOP, "its path has too many symbolic links (a loop?)"), (ENAMETOOLONG, "its path is too long"),
                      (EIO, "the disk reported an input/output error")])
    func systemErrorsAreSaidInOurWords(code: Int32, words: String) {
        #expect(InputFileProblem(call: "open", errno: code).description == words)
    }

    @Test func readsAFileAndRefusesWhatIsNoFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("image.bin").path
        try #require(FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3])))
        #expect(try InputFile.load(path: file, limit: 3, what: "an image") == [1, 2, 3])
        #expect(throws: InputFileProblem.tooLarge(size: 3, limit: 2, what: "an image")) {
            try InputFile.load(path: file, limit: 2, what: "an image")
        }
        #expect(InputFileProblem.tooLarge(size: 70_000, limit: 64 * 1024, what: "a key file").description
                == "it is 70000 bytes, more than the 64 KiB a key file can be")
        #expect(throws: InputFileProblem.directory) { try InputFile.load(path: directory.path, limit: 10, what: "an image") }
        #expect(throws: InputFileProblem.missing) { try InputFile.load(path: file + ".gone", limit: 10, what: "an image") }
        #expect(throws: InputFileProblem.pathThroughFile) { try InputFile.load(path: file + "/x", limit: 10, what: "an image") }
        #expect(throws: InputFileProblem.notAFile("a device")) { try InputFile.load(path: "/dev/null", limit: 10, what: "an image") }
    }
}
