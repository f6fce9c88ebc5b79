@testable import DFUCore
import Foundation
import Testing

/// The update journal: written whole and private, read back the same, never trusted when it is
/// not one, and kept in step with an update's events.
@Suite struct JournalTests {
    let directory: String
    let store: JournalStore

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-journal-\(UUID().uuidString)").path
        store = JournalStore(directory: directory + "/state/dfu")
    }

    func journal(_ device: String = "AA:BB:CC:DD:EE:FF") -> UpdateJournal {
        UpdateJournal(request: FlashRequest(imagePath: "/images/app.bin", device: device),
                      file: UpdateFileFacts(sha256: "ab12", size: 1000, protocolName: .smp),
                      imageVersion: "1.1.0+0", now: 1_700_000_000)
    }

    @Test func aSavedJournalReadsBackTheSameAndIsPrivate() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try store.save(journal())
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal == journal())
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path(for: "AA:BB:CC:DD:EE:FF"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: store.directory)
        #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).count == 1, "no temporary file left")
    }

    @Test func devicesThatReadAlikeGetTheirOwnFiles() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let devices = ["sim:id=a:b", "sim:id=a-b", "sim:id=a/b", "udp:127.0.0.1:1337", "name:sensor 12"]
        for device in devices { try store.save(journal(device)) }
        #expect(Set(devices.map(store.path(for:))).count == devices.count)
        #expect(store.all().journals.map(\.device) == devices.sorted())
        #expect(devices.allSatisfy { !JournalStore.fileName(for: $0).contains("/") })
    }

    @Test(arguments: ["", "{", "[]", "{\"format\":\"dfu-journal/1\"}", "{\"format\":\"dfu-journal/9\",\"device\":\"x\"}",
                      String(repeating: " ", count: 70_000)])
    func aFileThatIsNoJournalIsSetAsideAndReported(_ text: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try store.save(journal())
        let path = store.path(for: "AA:BB:CC:DD:EE:FF")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let read = store.journal(for: "AA:BB:CC:DD:EE:FF")
        #expect(read.journal == nil)
        let setAside = try #require(read.setAside)
        #expect(setAside.movedTo?.hasPrefix(path + ".set-aside-") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(store.all().journals.isEmpty && store.all().setAside.isEmpty, "set aside once, then out of the way")
    }

    @Test func aJournalUnderAnotherDevicesNameIsNotTrusted() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try store.save(journal("sim:id=1"))
        try FileManager.default.moveItem(atPath: store.path(for: "sim:id=1"), toPath: store.path(for: "sim:id=2"))
        #expect(store.journal(for: "sim:id=2").journal == nil)
        #expect(store.journal(for: "sim:id=2").setAside == nil, "already set aside by the first read")
    }

    @Test func theDefaultDirectoryFollowsXDG() {
        #expect(JournalStore.defaultDirectory(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/dfu")
        #expect(JournalStore.defaultDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/dfu")
        #expect(JournalStore.defaultDirectory(environment: [:]) == nil)
    }

    @Test func theRecorderFollowsTheStagesAndThrottlesProgress() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var recorder = JournalRecorder(journal(), store: store, previous: nil)
        let start = ContinuousClock.now
        _ = recorder.record(.stageStarted(.verifyImage), at: start, unixTime: 1)
        _ = recorder.record(.stageStarted(.connect), at: start, unixTime: 2)
        _ = recorder.record(.deviceState(DeviceFacts(runningVersion: ImageVersion(major: 1, minor: 0, revision: 0))),
                            at: start, unixTime: 2)
        _ = recorder.record(.stageStarted(.transfer), at: start, unixTime: 3)
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal == nil, "not written ahead: nothing written before the device took a byte")
        _ = recorder.record(Self.progress(100), at: start + .milliseconds(100), unixTime: 3)
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal?.offset == 100, "the first bytes are written at once")
        _ = recorder.record(Self.progress(300), at: start + .milliseconds(600), unixTime: 3)
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal?.offset == 100, "within a second of the last write")
        _ = recorder.record(Self.progress(600), at: start + .milliseconds(1100), unixTime: 4)
        let saved = try #require(store.journal(for: "AA:BB:CC:DD:EE:FF").journal)
        #expect(saved.stage == "transfer" && saved.offset == 600 && saved.versionBefore == "1.0.0+0")
        #expect(saved.status == .unfinished && saved.lastOutcome == nil)

        _ = recorder.finish(.init(result: .succeeded, message: "the device runs 1.1.0+0"), at: start + .seconds(2), unixTime: 5)
        let done = try #require(store.journal(for: "AA:BB:CC:DD:EE:FF").journal)
        #expect(done.status == .done && done.stage == "done" && done.finishedAt == 5 && done.lastOutcome?.result == .succeeded)
    }

    static func progress(_ bytes: Int, startOffset: Int = 0) -> UpdateEvent {
        .progress(TransferProgress(acknowledged: bytes, total: 1000, elapsed: .zero, rate: 0, startOffset: startOffset))
    }

    /// A run that ends before the device took a byte of its own (it failed to connect, a
    /// precondition failed, the device refused the image at once, it was stopped) is no update
    /// to resume: no journal, and an older one of another update is left as it was.
    @Test func aRunThatChangedNothingOnTheDeviceLeavesNoJournal() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var other = journal()
        other.file.sha256 = "cd34"
        other.offset = 400
        try store.save(other)
        var recorder = JournalRecorder(journal(), store: store, previous: other)
        for stage in [UpdateStage.verifyImage, .connect, .readDeviceState, .checkPreconditions, .transfer] {
            #expect(recorder.record(.stageStarted(stage), at: .now, unixTime: 2) == nil)
        }
        // The device's first answer says it already held 200 bytes (an earlier run's): none of them this run's.
        _ = recorder.record(Self.progress(200, startOffset: 200), at: .now, unixTime: 3)
        _ = recorder.finish(.failed(.deviceRejected("the device refused the image")), at: .now, unixTime: 4)
        #expect(!recorder.isKept)
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal == other)
    }

    /// The journal written ahead of the run is what `dfu resume` finds when the process is killed
    /// before the device's first answer (it may hold a chunk already); it follows the stages, and a
    /// run that ends without the device taking anything removes it and puts back the journal it replaced.
    @Test func theJournalWrittenAheadOfTheRunStaysOnlyIfTheRunNeverEnds() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var killed = JournalRecorder(journal(), store: store, previous: nil)
        #expect(killed.writeAhead(at: .now, unixTime: 1) == nil)
        _ = killed.record(.stageStarted(.transfer), at: .now, unixTime: 2)
        // No finish: the process died here.
        let ahead = try #require(store.journal(for: "AA:BB:CC:DD:EE:FF").journal, "written ahead")
        #expect(ahead.status == .unfinished && ahead.stage == "transfer" && ahead.offset == 0)
        try store.remove(device: "AA:BB:CC:DD:EE:FF")

        var refused = JournalRecorder(journal(), store: store, previous: nil)
        _ = refused.writeAhead(at: .now, unixTime: 1)
        _ = refused.record(.stageStarted(.transfer), at: .now, unixTime: 2)
        _ = refused.finish(.failed(.deviceRejected("the device refused the image")), at: .now, unixTime: 3)
        #expect(!refused.isKept)
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal == nil)

        var finished = journal()
        finished.file.sha256 = "cd34"
        finished.status = .done
        try store.save(finished)
        var another = JournalRecorder(journal(), store: store, previous: finished)
        _ = another.writeAhead(at: .now, unixTime: 4)
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal?.file.sha256 != "cd34", "this run's, written ahead")
        _ = another.finish(.failed(.deviceRejected("the device refused the image")), at: .now, unixTime: 5)
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal == finished)

        var kept = JournalRecorder(journal(), store: store, previous: nil)
        _ = kept.writeAhead(at: .now, unixTime: 6)
        _ = kept.record(Self.progress(100), at: .now, unixTime: 7)
        _ = kept.finish(.failed(.transferInterrupted("the link was lost")), at: .now, unixTime: 8)
        #expect(kept.isKept && store.journal(for: "AA:BB:CC:DD:EE:FF").journal?.offset == 100)
    }

    /// Activating changes the device even when nothing is sent (it already held the image).
    @Test func anActivationIsKeptEvenWithoutATransfer() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var recorder = JournalRecorder(journal(), store: store, previous: nil)
        _ = recorder.record(.stageStarted(.checkPreconditions), at: .now, unixTime: 2)
        _ = recorder.record(.stageStarted(.activate), at: .now, unixTime: 3)
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal?.stage == "activate")
    }

    /// Another attempt at an unfinished update that fails before sending anything still says how it
    /// ended, and keeps the progress the earlier attempt saw.
    @Test func anAttemptAtAnUnfinishedUpdateIsRecordedHoweverItEnds() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var earlier = journal()
        earlier.stage = "transfer"
        earlier.offset = 600
        try store.save(earlier)
        var recorder = JournalRecorder(journal(), store: store, previous: earlier)
        _ = recorder.record(.stageStarted(.connect), at: .now, unixTime: 2)
        _ = recorder.finish(.failed(.deviceUnreachable("the device cannot be reached")), at: .now, unixTime: 3)
        let saved = try #require(store.journal(for: "AA:BB:CC:DD:EE:FF").journal)
        #expect(saved.attempts == 2 && saved.offset == 600 && saved.stage == "connect"
                && saved.lastOutcome == .init(result: .failed, failure: .deviceUnreachable, message: "the device cannot be reached"))
        #expect(saved.status == .unfinished)
    }

    @Test func aRunOfTheSameUpdateCountsAsAnotherAttempt() throws {
        var earlier = journal()
        earlier.attempts = 2
        earlier.startedAt = 42
        let same = JournalRecorder(journal(), store: store, previous: earlier)
        #expect(same.journal.attempts == 3 && same.journal.startedAt == 42)
        var otherFile = earlier
        otherFile.file.sha256 = "cd34"
        #expect(JournalRecorder(journal(), store: store, previous: otherFile).journal.attempts == 1)
    }

    @Test func aJournalThatCannotBeWrittenIsReportedOnceAndTheRunGoesOn() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: directory + "/state"))  // a file where the directory should be
        var recorder = JournalRecorder(journal(), store: store, previous: nil)
        #expect(recorder.record(Self.progress(100), at: .now, unixTime: 1) != nil)
        #expect(recorder.record(.stageStarted(.activate), at: .now, unixTime: 1) == nil, "reported once")
    }
}
