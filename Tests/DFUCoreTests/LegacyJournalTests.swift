@testable import DFUCore
import ExitCodes
import Foundation
import Testing

/// Journals of the first format (`dfu-journal/1`, `Tests/Vectors/journal/`): their words are read
/// once into a typed request, their exit codes into typed outcomes, and an update an older dfu left
/// unfinished is kept; a file whose words no dfu wrote is set aside, never guessed at.
@Suite struct LegacyJournalTests {
    static let vectors = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Vectors/journal")

    let store = JournalStore(directory: FileManager.default.temporaryDirectory
        .appendingPathComponent("dfu-legacy-journal-\(UUID().uuidString)").path)

    /// The vector `name` written as `device`'s journal, `@ROOT@` replaced by `/root`.
    func install(_ name: String, as device: String, editing edit: (String) -> String = { $0 }) throws {
        let text = try String(contentsOf: Self.vectors.appendingPathComponent(name), encoding: .utf8)
            .replacingOccurrences(of: "@ROOT@", with: "/root")
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try Data(edit(text).utf8).write(to: URL(fileURLWithPath: store.path(for: device)))
    }

    @Test func aBluetoothNordicJournalBecomesItsTypedRequest() throws {
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let device = "C2:11:40:55:7A:01"
        try install("dfu-journal-1-bluetooth-nordic.json", as: device)
        let journal = try #require(store.journal(for: device).journal)
        var expected = FlashRequest(imagePath: "/srv/line-7/app_dfu_package.zip", device: device)
        expected.adapter = "hci1"
        expected.keyPath = "/srv/line-7/keys/pub.pem"
        expected.allowUnsigned = true
        expected.expectVersion = "fw_version 3"
        expected.packetReceiptInterval = 12
        expected.bootloaderName = "Dfu04711"
        expected.mode = .confirmOnly
        expected.minimumBattery = 25
        expected.allowDowngrade = true
        expected.allowHostOnBattery = true
        expected.pair = true
        expected.timeouts = .init(connect: 2.5)
        #expect(journal.request == expected, "the device is the journal's canonical one, not the words' lower case")
        #expect(journal.format == UpdateJournal.currentFormat)
        #expect(journal.file == UpdateFileFacts(sha256: "5b1f3c0e0f4f6a0f8d7b1c2e3d4a5b6c7d8e9f00112233445566778899aabbcc",
                                                size: 24_580, protocolName: .nordic))
        #expect(journal.status == .unfinished && journal.stage == "transfer" && journal.part == "application"
                && journal.offset == 4096 && journal.attempts == 3 && journal.bootloaderName == "Dfu04711")
        #expect(journal.startedAt == 1_796_500_000 && journal.updatedAt == 1_796_500_100 && journal.versionBefore == "fw_version 2")
        #expect(journal.lastOutcome == .interrupted && journal.lastOutcome?.exitStatus == .interrupted)
    }

    @Test func aSimJournalKeepsItsWaitsAndItsFailure() throws {
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        try install("dfu-journal-1-sim-unfinished.json", as: "sim:timescale=0")
        let journal = try #require(store.journal(for: "sim:timescale=0").journal)
        let request = journal.request
        #expect(request.imagePath == "/root/firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin")
        #expect(request.keyPath == "/root/firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem")
        #expect(request.expectVersion == "1.1.0" && request.packetReceiptInterval == 3 && request.imageIndex == 0)
        #expect(request.minimumBattery == 40 && request.requireNewer && request.allowHostOnBattery && !request.pair)
        #expect(request.timeouts == .init(reboot: 90, chunk: 7.5, firstChunk: 60))
        #expect(journal.mode == .testConfirm && journal.protocolName == .smp)
        #expect(journal.lastOutcome?.result == .failed && journal.lastOutcome?.failure == .transferInterrupted)
        #expect(journal.lastOutcome?.exitStatus == .transferInterrupted)

        // The next write is today's format, and reads back the same.
        try store.save(journal)
        let text = try String(contentsOfFile: store.path(for: "sim:timescale=0"), encoding: .utf8)
        #expect(text.contains("\"format\" : \"dfu-journal/2\"") && !text.contains("arguments") && !text.contains("exit_code"))
        #expect(store.journal(for: "sim:timescale=0").journal == journal)
    }

    /// Each exit code the old format recorded reads back as the outcome it stood for.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 130] as [Int32])
    func everyRecordedExitCodeIsTheSameOutcome(_ code: Int32) throws {
        let outcome = try LegacyJournal.outcome(.init(exitCode: code, message: "m"))
        #expect(outcome.exitStatus.rawValue == code)
    }

    @Test(arguments: [
        ("\"--pair\"", "\"--passkey\", \"123456\"", "'--passkey'"),
        ("\"exit_code\" : 6", "\"exit_code\" : 42", "exit code 42"),
        ("\"protocol\" : \"smp\"", "\"protocol\" : \"xmodem\"", "'xmodem'"),
        ("\"--prn\",\n    \"3\"", "\"--prn\",\n    \"many\"", "--prn 'many'"),
    ])
    func aJournalWhoseFieldsNoDfuWroteIsSetAside(_ find: String, _ replacement: String, _ reason: String) throws {
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let vector = find == "\"--pair\"" ? "dfu-journal-1-bluetooth-nordic.json" : "dfu-journal-1-sim-unfinished.json"
        let device = find == "\"--pair\"" ? "C2:11:40:55:7A:01" : "sim:timescale=0"
        try install(vector, as: device) { text in
            #expect(text.contains(find))
            return text.replacingOccurrences(of: find, with: replacement)
        }
        let read = store.journal(for: device)
        #expect(read.journal == nil)
        let setAside = try #require(read.setAside)
        #expect(setAside.reason.contains("older dfu") && setAside.reason.contains(reason), "\(setAside.reason)")
    }
}
