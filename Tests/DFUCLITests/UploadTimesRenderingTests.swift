// In-process tests of the `dfu` target's renderers (see RenderTestSupport.swift for the condition).
#if DFU_CLI_UNIT_TESTS
@testable import dfu
import DFUCore
import Foundation
import Testing

/// Rates and times that add up: the line that ends an upload, the `--verbose` stage timings and
/// model time, fed scripted engine events.
@Suite struct UploadTimesRenderingTests {
    /// An upload resumed where the device held 20 KiB of 48 (an earlier run's): the line counts the
    /// 28 KiB this run sent, not the image, and its rate is those bytes over the time after the first reply.
    @Test func aResumedUploadCountsOnlyWhatItSent() {
        var run = ScriptedRun.upToTransfer()
        run.add(.preconditionsPassed(Fixture.passedVerdict), at: 1056)
        run.add(.stageFinished(.checkPreconditions, duration: .milliseconds(1)), at: 1056)
        run.add(.stageStarted(.transfer), at: 1100)
        let held = 20 * 1024
        for step in 0 ... 28 {
            let elapsed = 50 + step * 20
            run.add(.progress(TransferProgress(acknowledged: held + step * 1024, total: Fixture.image.size,
                                               elapsed: .milliseconds(elapsed), rate: 51_200, startOffset: held)),
                    at: 1100 + elapsed)
        }
        run.add(.stageFinished(.transfer, duration: .milliseconds(610)), at: 1710)
        var renderer = Fixture.terminal(isTerminal: false)
        _ = run.play(into: &renderer)
        #expect(renderer.sink.stdoutLines.contains(
            "uploaded 28.7 kB in 0.61 s, resumed at 20.5 kB: first reply after 0.05 s, then 28.7 kB in 0.56 s, 51.2 kB/s (85 % of ceiling)"),
                "\(renderer.sink.stdoutLines)")
    }

    /// The numbers of the line that ends the upload, read back as a user would check them: the
    /// wait and the rest make the whole time, and the rate is the bytes over the rest.
    @Test func theUploadedLineAddsUp() throws {
        var renderer = Fixture.terminal(isTerminal: false)
        _ = ScriptedRun.fullFlash.play(into: &renderer)
        let line = try #require(renderer.sink.stdoutLines.first { $0.hasPrefix("uploaded ") })
        let numbers = Self.numbers(in: line)
        // uploaded 49.2 kB in 2.14 s: first reply after 1.20 s (erase), then 48.1 kB in 0.94 s, 51.2 kB/s (85 % of ceiling)
        try #require(numbers.count == 7, "\(line)")
        let (total, wait, bytes, rest, rate) = (numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        #expect(abs(wait + rest - total) < 0.001, "\(line)")
        #expect(abs(bytes / rest - rate) <= rate * 0.02, "\(line)")
    }

    /// Every row is its own stage, so they add up to no more than the run: the erase wait (inside
    /// the transfer) and the reboot (the reconnect stage) are not rows of their own.
    @Test func stageTimingsAddUpToNoMoreThanTheRun() throws {
        var renderer = Fixture.terminal(isTerminal: false, verbose: true)
        _ = ScriptedRun.fullFlash.play(into: &renderer)
        let rows = Array(renderer.sink.stderrLines.drop { $0 != "dfu: stage timings:" }.dropFirst())
        let sum = rows.compactMap { Self.numbers(in: $0).first }.reduce(0, +)
        let took = try #require(renderer.sink.stdoutLines.last.flatMap { Self.numbers(in: $0).last })
        #expect(rows.count == 8 && sum <= took + 0.005, "\(rows) add up to \(sum) s; the run took \(took) s")
    }

    /// A virtual device with a time scale measures its stages, upload and rate in model time: those
    /// lines say so, beside the run's own length, which is real time.
    @Test func modelTimeIsLabelled() {
        var renderer = TerminalRenderer(sink: CapturedOutput(), configuration: .init(
            imageName: "app.signed.bin", minimumBattery: 30, isTerminal: false, verbose: true, modelTimeScale: 0.1))
        _ = ScriptedRun.fullFlash.play(into: &renderer)
        #expect(renderer.sink.stdoutLines.contains { $0.hasPrefix("uploaded 49.2 kB in 2.14 s (model time): ") })
        #expect(renderer.sink.stderrLines.contains("dfu: stage timings (model time, timescale 0.1):"))
    }

    /// Two parts: their bytes, waits and times add, each part's first reply counted once.
    @Test func partsOfAnUpdateAddUp() {
        let first = UpdatePart(name: "softdevice", number: 1, count: 2, size: 10_000)
        let second = UpdatePart(name: "application", number: 2, count: 2, size: 5_000)
        var tally = UploadTally()
        for (bytes, milliseconds) in [(1_000, 100), (6_000, 200), (10_000, 300)] {
            tally.record(TransferProgress(acknowledged: bytes, total: 10_000, elapsed: .milliseconds(milliseconds),
                                          rate: 0, part: first))
        }
        for (bytes, milliseconds) in [(3_000, 50), (5_000, 150)] {
            tally.record(TransferProgress(acknowledged: bytes, total: 5_000, elapsed: .milliseconds(milliseconds),
                                          rate: 0, part: second, startOffset: 2_000))
        }
        #expect(tally.sent == 10_000 + 3_000 && tally.heldBefore == 2_000)
        #expect(tally.parts == 2 && tally.partsFromStart == 1)
        #expect(tally.time == .milliseconds(450) && tally.firstReplies == .milliseconds(150))
        #expect(tally.afterFirstReply == 9_000 + 2_000 && abs((tally.rate ?? 0) - 11_000 / 0.3) < 0.01)
    }

    /// The decimal numbers in `text`, in order.
    static func numbers(in text: String) -> [Double] {
        var numbers: [Double] = []
        var current = ""
        for character in text + " " {
            if character.isASCII && (character.isNumber || character == ".") {
                current.append(character)
            } else {
                if let value = Double(current.trimmingCharacters(in: CharacterSet(charactersIn: "."))) { numbers.append(value) }
                current = ""
            }
        }
        return numbers
    }
}
#endif
