@testable import dfu_faults
import Testing

/// One `bluez-disconnect` run through the campaign's own code: a private dbus-daemon, the BlueZ
/// stand-in with the virtual device behind it, dfu's BlueZ central, the link dropped by the
/// device mid-upload. It starts its own bus, so it runs in make test's first `swift test` batch
/// beside the TransportTests' BlueZ suites. Without dbus-daemon it fails (the set-up error says
/// `make deps`), as the campaign's `bluez-*` rows do: never skipped.
@Suite struct BlueZFaultRunTests {
    @Test func aBlueZDisconnectRunResumesCompletesAndKeepsEveryInvariant() async throws {
        let scenario = try #require(Scenario.catalogue.first { $0.name == "bluez-disconnect" })
        #expect(scenario.link == .bluez && scenario.nordic == nil)
        let inputs = try FlashInputs.load(try FaultsOptions.parse([]))
        // A slower model clock than the campaign's 0.05: the run shares the machine with the rest
        // of the batch, and a chunk deadline is then 1.25 s of real time instead of 0.25 s.
        let record = try await ScenarioRun(scenario: scenario, run: 1, seed: 1000, inputs: inputs, nordicInputs: nil,
                                           timeScale: 0.25, hangGuard: .seconds(120)).perform()
        #expect(record.outcome == .completed, "\(record.attempts.map(\.message))")
        #expect(record.violations.isEmpty)
        #expect(record.faults.hasPrefix("disconnect@"))
        #expect(record.attempts.count == 1)
        #expect(record.resumes == 1, "the upload went on once after the device dropped the link")
        #expect(record.uploadedBytes >= inputs.image.count)
    }
}
