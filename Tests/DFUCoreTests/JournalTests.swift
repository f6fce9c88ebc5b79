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
        UpdateJournal(device: device, protocolName: "smp", imagePath: "/images/app.bin", imageSHA256: "ab12",
                      imageSize: 1000, imageVersion: "1.1.0+0", mode: "test-confirm",
                      arguments: ["/images/app.bin", "--device", device], now: 1_700_000_000)
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
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal == nil, "nothing written before the image is checked")
        _ = recorder.record(.stageStarted(.connect), at: start, unixTime: 2)
        _ = recorder.record(.deviceState(DeviceFacts(runningVersion: ImageVersion(major: 1, minor: 0, revision: 0))),
                            at: start, unixTime: 2)
        _ = recorder.record(.stageStarted(.transfer), at: start, unixTime: 3)
        func progress(_ bytes: Int) -> UpdateEvent {
            .progress(TransferProgress(acknowledged: bytes, total: 1000, elapsed: .zero, rate: 0))
        }
        _ = recorder.record(progress(100), at: start + .milliseconds(100), unixTime: 3)
        #expect(store.journal(for: "AA:BB:CC:DD:EE:FF").journal?.offset == 0, "within a second of the last write")
        _ = recorder.record(progress(600), at: start + .milliseconds(1100), unixTime: 4)
        let saved = try #require(store.journal(for: "AA:BB:CC:DD:EE:FF").journal)
        #expect(saved.stage == "transfer" && saved.offset == 600 && saved.versionBefore == "1.0.0+0")
        #expect(saved.status == .unfinished && saved.lastOutcome == nil)

        _ = recorder.finish(exitCode: 0, message: "the device runs 1.1.0+0", at: start + .seconds(2), unixTime: 5)
        let done = try #require(store.journal(for: "AA:BB:CC:DD:EE:FF").journal)
        #expect(done.status == .done && done.stage == "done" && done.finishedAt == 5 && done.lastOutcome?.exitCode == 0)
    }

    @Test func aRunOfTheSameUpdateCountsAsAnotherAttempt() throws {
        var earlier = journal()
        earlier.attempts = 2
        earlier.startedAt = 42
        let same = JournalRecorder(journal(), store: store, previous: earlier)
        #expect(same.journal.attempts == 3 && same.journal.startedAt == 42)
        var otherFile = earlier
        otherFile.imageSHA256 = "cd34"
        #expect(JournalRecorder(journal(), store: store, previous: otherFile).journal.attempts == 1)
    }

    @Test func aJournalThatCannotBeWrittenIsReportedOnceAndTheRunGoesOn() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: directory + "/state"))  // a file where the directory should be
        var recorder = JournalRecorder(journal(), store: store, previous: nil)
        #expect(recorder.record(.stageStarted(.connect), at: .now, unixTime: 1) != nil)
        #expect(recorder.record(.stageStarted(.transfer), at: .now, unixTime: 1) == nil, "reported once")
    }
}
