// These tests call the renderers and parsers of the `dfu` executable target in-process, which needs
// `"dfu"` among DFUCLITests' dependencies in Package.swift and the DFU_CLI_UNIT_TESTS condition
// (`swiftSettings: [.define("DFU_CLI_UNIT_TESTS")]`). Until both are there, this file compiles to
// nothing, so the binary-driven tests beside it keep building.
#if DFU_CLI_UNIT_TESTS
@testable import dfu
import DFUCore
import Testing

/// The pieces the renderers share: decimal text, units, the progress throttle.
@Suite struct RenderFormattingTests {
    @Test(arguments: [
        (7.5, 2, "7.50"), (0.005, 2, "0.01"), (-0.005, 2, "-0.01"), (-0.0001, 2, "0.00"), (2.675, 0, "3"),
        (1234.5678, 3, "1234.568"), (0, 1, "0.0"), (9e13, 1, "90000000000000.0"),
    ])
    func fixedPointRoundsHalfAwayFromZero(value: Double, digits: Int, expected: String) {
        #expect(FixedPoint.format(value, fractionDigits: digits) == expected)
    }

    @Test func fixedPointRefusesWhatItCannotWriteExactly() {
        #expect(FixedPoint.format(.nan, fractionDigits: 1) == nil)
        #expect(FixedPoint.format(.infinity, fractionDigits: 1) == nil)
        #expect(FixedPoint.format(1e300, fractionDigits: 1) == nil)
        #expect(JSONValue.number(.nan, maximumFractionDigits: 1).encoded == "null")
    }

    @Test func jsonNumbersDropTrailingZeros() {
        #expect(JSONValue.number(7.5, maximumFractionDigits: 3).encoded == "7.5")
        #expect(JSONValue.number(60_000, maximumFractionDigits: 1).encoded == "60000")
        #expect(JSONValue.number(-0.0001, maximumFractionDigits: 3).encoded == "0")
        #expect(JSONValue.number(0.0005, maximumFractionDigits: 3).encoded == "0.001")
    }

    @Test func unitsAreDecimalKilobytes() {
        #expect(HumanUnits.bytes(999) == "999 B")
        #expect(HumanUnits.bytes(49_152) == "49.2 kB")
        #expect(HumanUnits.bytes(524_288) == "524.3 kB")
        #expect(HumanUnits.bytes(1_048_576) == "1.05 MB")
        #expect(HumanUnits.bytes(500, of: 524_288) == "0.5/524.3 kB")
        #expect(HumanUnits.rate(15_300) == "15.3 kB/s")
        #expect(HumanUnits.milliseconds(.microseconds(7500)) == "7.5 ms")
        #expect(HumanUnits.milliseconds(.milliseconds(30)) == "30 ms")
        #expect(HumanUnits.clock(3.2) == "0:04")
        #expect(HumanUnits.clock(125) == "2:05")
        #expect(HumanUnits.clock(.infinity) == "--:--")
    }

    @Test func percentIsRoundedDownAndClamped() {
        #expect(HumanUnits.percent(49_151, of: 49_152) == 99)
        #expect(HumanUnits.percent(49_152, of: 49_152) == 100)
        #expect(HumanUnits.percent(60_000, of: 49_152) == 100)
        #expect(HumanUnits.percent(-5, of: 100) == 0)
        #expect(HumanUnits.percent(0, of: 0) == 0)
        #expect(HumanUnits.percent(Int.max, of: Int.max) == 100)
    }

    /// Plain lines start at the first 10 % boundary crossed, not at the first event, and show each
    /// boundary once.
    @Test func plainThrottleShowsEachTenPercentOnce() {
        var throttle = ProgressThrottle.plainLines
        let start = ContinuousClock.now
        let shown = (1...200).filter { step in
            throttle.shouldShow(TransferProgress(acknowledged: step * 5, total: 1000, elapsed: .zero, rate: 1),
                                at: start + .milliseconds(step))
        }
        #expect(shown.map { $0 * 5 } == [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000])
    }

    /// A device that rebooted mid-transfer starts again from 0: that is shown at once.
    @Test func throttleShowsATransferThatStartsOver() {
        var throttle = ProgressThrottle.plainLines
        let start = ContinuousClock.now
        func show(_ bytes: Int, _ ms: Int) -> Bool {
            throttle.shouldShow(TransferProgress(acknowledged: bytes, total: 1000, elapsed: .zero, rate: 1),
                                at: start + .milliseconds(ms))
        }
        #expect(show(650, 1))
        #expect(!show(655, 2))
        #expect(show(10, 3))
        #expect(show(120, 4))
    }

    @Test func terminalThrottleIsTimeOnlyAndShowsTheEndOnce() {
        var throttle = ProgressThrottle.terminalBar
        let start = ContinuousClock.now
        func show(_ bytes: Int, _ ms: Int) -> Bool {
            throttle.shouldShow(TransferProgress(acknowledged: bytes, total: 1000, elapsed: .zero, rate: 1),
                                at: start + .milliseconds(ms))
        }
        #expect(show(1, 0))
        #expect(!show(500, 50))
        #expect(show(600, 100))
        #expect(show(1000, 120))
        #expect(!show(1000, 300))
    }

    @Test func stageTimingsUseTheWordsOfTheVerboseSummary() {
        #expect(UpdateStage.allCases.map(StageTimings.label) == [
            "image check", "connect", "discovery", "preconditions", "transfer", "activate", "reboot, reconnect", "version check",
        ])
    }
}
#endif
