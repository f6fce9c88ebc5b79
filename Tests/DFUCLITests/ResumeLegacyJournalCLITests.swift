import DFUCore
import Foundation
import Testing

/// An update an older dfu left unfinished, in its journal of the first format (`dfu-journal/1`,
/// `Tests/Vectors/journal/`): `dfu resume` lists it and finishes it with the options its words
/// held, and the journal is then today's.
@Suite(.endToEnd) struct ResumeLegacyJournalCLITests {
    @Test func anUnfinishedUpdateOfAnOlderDfuIsResumed() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let root = DFUBinary.repositoryRoot.path
        let store = JournalStore(directory: state + "/dfu")
        let device = "sim:timescale=0"
        let text = try String(contentsOfFile: root + "/Tests/Vectors/journal/dfu-journal-1-sim-unfinished.json", encoding: .utf8)
            .replacingOccurrences(of: "@ROOT@", with: root)
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try text.write(toFile: store.path(for: device), atomically: true, encoding: .utf8)
        let environment = ["XDG_STATE_HOME": state]

        let list = try DFURun.run(["resume", "--list", "--json"], environment: environment)
        let unfinished = try #require(try list.stdoutLines.map(FlashCLITests.object).first, "\(list.output)")
        #expect(unfinished["event"] as? String == "unfinished" && unfinished["device"] as? String == device)
        #expect(unfinished["offset"] as? Int == 19_968 && unfinished["last_exit_code"] as? Int == 6, "\(unfinished)")
        #expect(list.stderr.isEmpty, "not set aside: \(list.stderr)")

        let resumed = try DFURun.run(["resume"], timeout: 60, environment: environment)
        #expect(resumed.exitCode == 0, "\(resumed.output)")
        #expect(resumed.stdoutLines.last == "dfu resume: 1 ok of 1: sim:timescale=0 ok (1.1.0+0)", "\(resumed.stdout)")

        let journal = try #require(store.journal(for: device).journal)
        #expect(journal.status == .done && journal.attempts == 2 && journal.versionAfter == "1.1.0+0")
        #expect(journal.request.packetReceiptInterval == 3 && journal.request.minimumBattery == 40
                && journal.request.timeouts == .init(reboot: 90, chunk: 7.5, firstChunk: 60), "the old words' options")
        let written = try String(contentsOfFile: store.path(for: device), encoding: .utf8)
        #expect(written.contains("dfu-journal/2") && !written.contains("\"arguments\""), "\(written)")
    }
}
