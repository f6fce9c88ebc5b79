import DFUCore
import Foundation
import Testing

/// A Nordic `dfu flash` cut off as the bootloader took the last Execute (killed, or the link gone
/// before the answer): the bootloader activated the package and the device now runs it. Run again,
/// or resumed, the update has nothing left to send: the journal of that unfinished update (the same
/// file, the version the device stated before it) and the application's new firmware revision say
/// so, and the run ends with exit 0. Without that evidence the same version is refused as not
/// newer (exit 4). The device here is a virtual nRF52 that already runs the package's fw_version 3.
@Suite(.serialized, .endToEnd) struct NordicActivatedEarlierCLITests {
    static let device = "sim:protocol=nordic,timescale=0,inactivity=off,version=3"

    /// A state directory holding the journal of an unfinished update of `sha256` (default: the
    /// package's) onto `device`, begun when the device stated `versionBefore`.
    static func state(versionBefore: String, sha256: String? = nil) throws -> String {
        let path = DFUBinary.repositoryRoot.path + "/" + NordicFlashCLITests.package
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let facts = try #require(UpdateFileFacts(of: bytes))
        var request = FlashRequest(imagePath: path, device: device)
        request.keyPath = DFUBinary.repositoryRoot.path + "/" + NordicFlashCLITests.key
        var journal = UpdateJournal(request: request,
                                    file: UpdateFileFacts(sha256: sha256 ?? facts.sha256, size: facts.size,
                                                          protocolName: facts.protocolName),
                                    imageVersion: "application fw_version 3", now: Int(Date().timeIntervalSince1970))
        journal.stage = "transfer"
        journal.offset = 49_152
        journal.versionBefore = versionBefore
        let state = try DFUTestEnvironment.freshStateHome()
        try JournalStore(directory: state + "/dfu").save(journal)
        return state
    }

    static func flash(state: String) throws -> DFURun {
        try DFURun.run(["flash", NordicFlashCLITests.package, "--device", device, "--key", NordicFlashCLITests.key],
                       timeout: 30, environment: ["XDG_STATE_HOME": state])
    }

    @Test func theSameCommandAgainFindsThePackageActivatedAndEndsWithSuccess() throws {
        let state = try Self.state(versionBefore: "0.0.1")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let run = try Self.flash(state: state)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.output.contains("already runs this image (application fw_version 3); nothing to upload"), "\(run.output)")
        #expect(!run.stdout.contains("transfer"), "nothing is sent again: \(run.stdout)")
        let list = try DFURun.run(["resume", "--list"], environment: ["XDG_STATE_HOME": state])
        #expect(!list.stdout.contains("sim:protocol=nordic"), "the update is done: \(list.output)")
    }

    @Test func resumeFindsThePackageActivatedAndEndsWithSuccess() throws {
        let state = try Self.state(versionBefore: "0.0.1")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let run = try DFURun.run(["resume"], timeout: 30, environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.output.contains("already runs this image"), "\(run.output)")
    }

    /// The evidence must be the earlier run's: no journal, a journal of another file, or a device
    /// that stated this same version before that run began, and the version is not newer.
    @Test(arguments: [("none", nil as String?), ("0.0.3", nil), ("0.0.1", String(repeating: "cd", count: 32))])
    func withoutThatEvidenceTheSameVersionIsRefusedAsNotNewer(versionBefore: String, sha256: String?) throws {
        let state = versionBefore == "none" ? try DFUTestEnvironment.freshStateHome()
            : try Self.state(versionBefore: versionBefore, sha256: sha256)
        defer { try? FileManager.default.removeItem(atPath: state) }
        let run = try Self.flash(state: state)
        #expect(run.exitCode == 4, "\(run.output)")
        #expect(run.output.contains("is not newer than the running firmware revision 0.0.3"), "\(run.output)")
    }
}
