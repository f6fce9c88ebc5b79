@testable import dfu_faults
import Testing
import Transport

/// `bluez-*` runs through the campaign's own code: a private dbus-daemon, the BlueZ stand-in with
/// the virtual device behind it, dfu's BlueZ central; the link dropped by the device mid-upload,
/// or the device back under a new address after its reset. Each starts its own bus, so it runs in make test's first `swift test` batch
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

    /// `bluez-new-address`: the device comes back from its reset under another address; dfu, given
    /// the old one, finds it by its name and the SMP service after half of the scenario's reboot
    /// timeout (6 s, real time) and confirms the image there.
    @Test func aDeviceThatComesBackUnderANewAddressIsFoundAndConfirmed() async throws {
        let scenario = try #require(Scenario.catalogue.first { $0.name == "bluez-new-address" })
        #expect(scenario.link == .bluez && scenario.movesAfterReboot && scenario.rebootTimeout == .seconds(6))
        let inputs = try FlashInputs.load(try FaultsOptions.parse([]))
        let record = try await ScenarioRun(scenario: scenario, run: 1, seed: 1000, inputs: inputs, nordicInputs: nil,
                                           timeScale: 0.25, hangGuard: .seconds(120)).perform()
        #expect(record.outcome == .completed, "\(record.attempts.map(\.message))")
        #expect(record.violations.isEmpty)
        #expect(record.faults == "new-address@reset")
        #expect(record.attempts.count == 1)
        #expect(ServedDevice.movedAddress(PeerIdentity("C3:F6:2A:D6:FD:46")) != PeerIdentity("C3:F6:2A:D6:FD:46"))
    }
}
