@testable import dfu_faults
import Testing

/// `serial-nordic-*` runs through the campaign's own code: the virtual nRF52's bootloader on a
/// pseudo-terminal, dfu's Nordic serial connector, faults drawn from the seed, the verdict and the
/// invariants read from the device model.
@Suite(.timeLimit(.minutes(2))) struct NordicSerialFaultRunTests {
    private func run(_ name: String, seed: UInt64 = 1000) async throws -> RunRecord {
        let scenario = try #require(Scenario.catalogue.first { $0.name == name })
        #expect(scenario.link == .serial && scenario.nordic != nil)
        let options = try FaultsOptions.parse([])
        // A slower model clock than the campaign's 0.05, as the run shares the machine with the rest
        // of the tests: the 10 s request deadline is then 2.5 s of real time.
        return try await ScenarioRun(scenario: scenario, run: 1, seed: seed, inputs: try FlashInputs.load(options),
                                     nordicInputs: try NordicInputs.load(options), timeScale: 0.25,
                                     hangGuard: .seconds(60)).perform()
    }

    @Test func theBaselineOverAUARTCompletesWithNothingResent() async throws {
        let record = try await run("serial-nordic-none")
        #expect(record.outcome == .completed, "\(record.attempts.map(\.message))")
        #expect(record.violations.isEmpty)
        #expect(record.extraBytes == 0)
    }

    /// The device starts its old application after the power cut, which says nothing on the line:
    /// the campaign puts it back into DFU mode by hand, as a user would, before the rerun.
    @Test func aPowerCutMidTransferIsExitSixThenTheRerunInDFUModeCompletes() async throws {
        let record = try await run("serial-nordic-power-cycle")
        #expect(record.outcome == .completedAfterFailure(.transferInterrupted), "\(record.attempts.map(\.message))")
        #expect(record.violations.isEmpty)
        #expect(record.faults.contains("power-cycle@") && record.faults.hasSuffix("+dfu-mode-by-hand"))
    }

    /// Faults finding 13: dfu reported this update done (exit 0) while the device ran its old
    /// application (`success-runs-new` broken in every run).
    @Test func aPowerCutAtTheFinalExecuteOverUSBIsExitSixNotDone() async throws {
        let record = try await run("serial-nordic-usb-power-cycle-at-activation")
        #expect(record.outcome == .completedAfterFailure(.transferInterrupted), "\(record.attempts.map(\.message))")
        #expect(record.violations.isEmpty)
        #expect(record.faults == "usb+power-cycle@final-execute+dfu-mode-by-hand")
    }

    @Test func theBootloaderDropsTheUSBLineAtTheSeedsWriteObject() async throws {
        let record = try await run("serial-nordic-usb-disconnect")
        #expect(record.outcome == .completed, "\(record.attempts.map(\.message))")
        #expect(record.violations.isEmpty)
        #expect(record.device.contains(",drop=packet:"))
        #expect(record.resumes == 1)
    }

    /// A response frame lost on the UART: dfu waits out its request deadline (exit 6), and the
    /// rerun carries on from what the bootloader kept in RAM (no connection ended), nothing resent.
    @Test func aLostChecksumAnswerIsExitSixThenTheRerunResumes() async throws {
        let record = try await run("serial-nordic-stall")
        #expect(record.outcome == .completedAfterFailure(.transferInterrupted), "\(record.attempts.map(\.message))")
        #expect(record.violations.isEmpty)
        #expect(record.device.contains(",cp_fault=drop@checksum:"))
        #expect(record.extraBytes == 0 && record.resumes == 1)
    }

    /// At dfu's default rate the firmware alone takes 49,152 × 10 / 115,200 ≈ 4.3 s of line time
    /// (at the campaign's 1,000,000 baud under half a second): the line is paced at the row's rate,
    /// and dfu's deadlines allow for it.
    @Test func atDfusDefaultBaudTheLineIsNineTimesSlowerAndTheUpdateCompletes() async throws {
        let slow = try await run("serial-nordic-none-115200")
        #expect(slow.outcome == .completed, "\(slow.attempts.map(\.message))")
        #expect(slow.violations.isEmpty && slow.extraBytes == 0)
        #expect(slow.modelSeconds > 4.3)
        let fast = try await run("serial-nordic-none")
        #expect(fast.modelSeconds < slow.modelSeconds - 3)
    }
}
