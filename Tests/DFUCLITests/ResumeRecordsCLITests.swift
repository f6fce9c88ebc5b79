import DFUCore
import Foundation
import Testing

/// `dfu resume --list` and `--forget` on journals written for the test (devices that need no
/// radio): the list is a record, naming each device in full as `--device` takes it; `--forget`
/// drops one device's, every, or the older unfinished updates, and nothing else.
@Suite(.endToEnd) struct ResumeRecordsCLITests {
    /// Two devices whose addresses end alike, and a sample journal for each.
    static let first = "C2:11:40:55:7A:01", second = "C3:11:40:55:7A:01"

    static func journal(_ device: String, daysAgo: Int = 0, status: UpdateJournal.Status = .unfinished) -> UpdateJournal {
        let now = Int(Date().timeIntervalSince1970) - daysAgo * 86_400
        let image = DFUBinary.repositoryRoot.path + "/" + FlashCLITests.image
        var journal = UpdateJournal(request: FlashRequest(imagePath: image, device: device),
                                    file: UpdateFileFacts(sha256: String(repeating: "ab", count: 32), size: 49_816,
                                                          protocolName: .smp),
                                    imageVersion: "1.1.0+0", now: now)
        journal.stage = "transfer"
        journal.offset = 24_908
        journal.status = status
        return journal
    }

    /// A fresh state directory holding `journals`; removed by the caller.
    static func state(with journals: [UpdateJournal]) throws -> String {
        let state = try DFUTestEnvironment.freshStateHome()
        let store = JournalStore(directory: state + "/dfu")
        for journal in journals { try store.save(journal) }
        return state
    }

    @Test func theListNamesEachDeviceInFullAsDeviceTakesIt() throws {
        let state = try Self.state(with: [Self.journal(Self.first), Self.journal(Self.second)])
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]

        let list = try DFURun.run(["resume", "--list"], environment: environment)
        #expect(list.exitCode == 0, "\(list.output)")
        let cells = list.stdoutLines.dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(cells == [Self.first, Self.second], "\(list.stdout)")
        for cell in cells {
            let one = try DFURun.run(["resume", "--list", "--device", cell], environment: environment)
            #expect(one.exitCode == 0 && one.stdoutLines.count == 2 && one.stdout.contains(cell), "\(one.output)")
        }
        let json = try DFURun.run(["resume", "--list", "--json"], environment: environment)
        let devices = try json.stdoutLines.map(FlashCLITests.object).compactMap { $0["device"] as? String }
        #expect(devices == [Self.first, Self.second], "\(json.stdout)")
    }

    /// `--forget --older-than DAYS` drops the unfinished updates last written longer ago; `--all`
    /// every unfinished one. A finished update's journal (what `dfu batch` reads) stays.
    @Test func forgetTakesThoseOlderThanSomeDaysOrAll() throws {
        let old = Self.journal(Self.first, daysAgo: 10)
        let recent = Self.journal(Self.second, daysAgo: 1)
        let done = Self.journal("udp:127.0.0.1:9", daysAgo: 30, status: .done)
        let state = try Self.state(with: [old, recent, done])
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]
        let store = JournalStore(directory: state + "/dfu")

        let preview = try DFURun.run(["resume", "--list", "--older-than", "7", "--full-addresses"], environment: environment)
        #expect(preview.stdoutLines.count == 2 && preview.stdout.contains(Self.first), "\(preview.output)")
        let older = try DFURun.run(["resume", "--forget", "--older-than", "7", "--full-addresses"], environment: environment)
        #expect(older.exitCode == 0, "\(older.output)")
        #expect(older.stdout == "forgot 1 unfinished update (\(Self.first)); the device keeps what it holds\n", "\(older.stdout)")
        #expect(store.journal(for: Self.first).journal == nil && store.journal(for: Self.second).journal != nil)
        let none = try DFURun.run(["resume", "--forget", "--older-than", "7"], environment: environment)
        #expect(none.stdout == "no unfinished update older than 7 days\n", "\(none.output)")

        let all = try DFURun.run(["resume", "--forget", "--all", "--json"], environment: environment)
        #expect(all.exitCode == 0, "\(all.output)")
        let result = try FlashCLITests.object(try #require(all.stdoutLines.last))
        #expect(result["forgot"] as? Bool == true && result["forgotten"] as? [String] == [Self.second], "\(all.stdout)")
        #expect(store.journal(for: Self.second).journal == nil)
        #expect(store.journal(for: done.device).journal?.status == .done, "a finished update's journal is kept")
        let empty = try DFURun.run(["resume", "--list"], environment: environment)
        #expect(empty.stdout == "no unfinished updates\n", "\(empty.output)")
    }

    @Test(arguments: [
        (["--forget"], "--forget needs the updates to forget: --device DEVICE, --older-than DAYS or --all"),
        (["--all"], "--all goes with --forget"),
        (["--forget", "--all", "--device", first], "--all and --device contradict each other"),
        (["--forget", "--all", "--older-than", "3"], "--all and --older-than contradict each other"),
        (["--older-than", "3"], "--older-than picks the updates to --list or --forget"),
        (["--forget", "--older-than", "-1"], "--older-than must be a number of days from 0 to 36500"),
        (["--forget", "--older-than", "99999"], "--older-than must be a number of days from 0 to 36500"),
        (["--forget", "--older-than", "week"], "invalid value 'week' for --older-than"),
    ] as [([String], String)])
    func badForgetRequestsAreUsageErrors(arguments: [String], message: String) throws {
        let run = try DFURun.run(["resume"] + arguments)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    /// `--passkey` on `dfu resume` goes to the resumed run of a Bluetooth device. (When the journal
    /// held `dfu flash` words, the passkey was appended as its redacted text, `******`, and every
    /// such resume was refused as a journal that cannot be resumed, exit 2.) No adapter answers
    /// here, so the run ends unreachable (exit 5) after the file check.
    @Test func aPasskeyGivenToResumeReachesTheRun() throws {
        let image = DFUBinary.repositoryRoot.path + "/" + FlashCLITests.image
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: image)))
        var journal = Self.journal(Self.first)
        journal.file = try #require(UpdateFileFacts(of: bytes))
        let state = try Self.state(with: [journal])
        defer { try? FileManager.default.removeItem(atPath: state) }
        let run = try DFURun.run(["resume", "--passkey", "123456", "--connect-timeout", "1"], timeout: 60,
                                 environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 5 && !run.stderr.contains("cannot be resumed"), "\(run.output)")
        #expect(!run.output.contains("123456"), "a passkey was printed")
    }
}
