@testable import DFUCore
import DeviceSim
import ExitCodes
import Foundation
import Testing
import Transport

extension EngineTests {
    /// A run cut off while the device waits in its bootloader under a name dfu gave it, at an address
    /// no rule derives from the application's (issue 18): the journal keeps the name, and the next
    /// run looks for the bootloader by it.
    @Suite(.timeLimit(.minutes(1))) struct NordicNamedBootloaderResumeTests {
        typealias Sim = NordicSimEngineTests

        /// The first run, stopped once the bootloader (under its own address) took data; the name
        /// it gave the bootloader.
        static func cutInTheBootloader(_ bench: Sim.Bench) async throws -> String {
            let first = try Sim.engine(bench).start()
            var name: String?
            for await event in first.events {
                if case .bootloaderNamed(let given) = event { name = given }
                if case .progress(let progress) = event, progress.acknowledged >= 8_192 { first.result.cancel() }
            }
            guard case .failure(let error) = await first.result.value else {
                Issue.record("the first run was meant to be stopped before it ended")
                return ""
            }
            #expect(error.exitStatus == .transferInterrupted, "stopped by the cancel, not by a failure: \(error)")
            #expect(await bench.sim.snapshot.currentIdentity == bench.sim.bootloaderIdentity, "left in DFU mode")
            #expect(bench.sim.bootloaderIdentity != bench.sim.applicationIdentity)
            return try #require(name, "the engine says which name the bootloader was given")
        }

        @Test func theNextRunFindsTheBootloaderByTheNameTheJournalKept() async throws {
            let bench = try await Sim.bench("bl_address=random,sdk=15")
            let name = try await Self.cutInTheBootloader(bench)
            let second = try await Sim.flash(bench) { $0.earlierBootloaderName = name }
            #expect(second.exitStatus == .success, "\(String(describing: second.error))")
            #expect(await bench.sim.snapshot.applicationVersion == 3)
            let firstProgress = try #require(second.progress.first?.acknowledged)
            #expect(firstProgress >= 8_192, "continued from the bootloader's offset (SDK 15 keeps it)")
        }

        /// Without the name (no journal: another machine, a deleted state directory) the bootloader is
        /// out of reach at the application's address and the next one: a clear exit 5, as before.
        @Test func withoutTheNameTheBootloaderIsNotFound() async throws {
            let bench = try await Sim.bench("bl_address=random")
            _ = try await Self.cutInTheBootloader(bench)
            let second = try await Sim.flash(bench)
            #expect(second.exitStatus == .deviceUnreachable, "\(String(describing: second.error))")
        }

        @Test func theRecorderKeepsTheNameAndTheNextRunOfTheDeviceInheritsIt() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-journal-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let store = JournalStore(directory: directory)
            func journal(sha256: String) -> UpdateJournal {
                UpdateJournal(request: FlashRequest(imagePath: "/p/app.zip", device: "AA:BB:CC:DD:EE:FF"),
                              file: UpdateFileFacts(sha256: sha256, size: 1000, protocolName: .nordic),
                              imageVersion: "fw_version 3", now: 1)
            }
            var recorder = JournalRecorder(journal(sha256: "ab"), store: store, previous: nil)
            _ = recorder.record(.stageStarted(.connect), at: .now, unixTime: 2)
            _ = recorder.record(.bootloaderNamed("Dfu04711"), at: .now, unixTime: 3)
            let saved = try #require(store.journal(for: "AA:BB:CC:DD:EE:FF").journal)
            #expect(saved.bootloaderName == "Dfu04711" && saved.status == .unfinished)

            // Another file for the same device: its bootloader still waits under that name.
            #expect(JournalRecorder(journal(sha256: "cd"), store: store, previous: saved).journal.bootloaderName == "Dfu04711")
            var finished = saved
            finished.status = .done
            #expect(JournalRecorder(journal(sha256: "ab"), store: store, previous: finished).journal.bootloaderName == nil,
                    "a finished update left no bootloader waiting")
        }
    }
}
