// These tests call the renderers and parsers of the `dfu` executable target in-process, which needs
// `"dfu"` among DFUCLITests' dependencies in Package.swift and the DFU_CLI_UNIT_TESTS condition
// (`swiftSettings: [.define("DFU_CLI_UNIT_TESTS")]`). Until both are there, this file compiles to
// nothing, so the binary-driven tests beside it keep building.
#if DFU_CLI_UNIT_TESTS
import DFUCore
import ExitCodes
import Foundation
@testable import dfu

/// A renderer's sink that keeps everything written, in order, per stream.
struct CapturedOutput: TextSink {
    private(set) var chunks: [(stream: ConsoleStream, text: String)] = []

    mutating func emit(_ text: String, to stream: ConsoleStream) {
        chunks.append((stream, text))
    }

    var stdout: String { text(of: .standardOutput) }
    var stderr: String { text(of: .standardError) }

    /// stdout as lines, without the empty string after the final newline.
    var stdoutLines: [String] { Self.lines(stdout) }
    var stderrLines: [String] { Self.lines(stderr) }

    /// stdout as a terminal would leave it on screen: `\r` returns to the start of the row and
    /// later characters overwrite earlier ones; trailing blanks are dropped.
    var screen: [String] {
        var rows: [String] = []
        var row: [Character] = []
        var column = 0
        for character in stdout {
            switch character {
            case "\r":
                column = 0
            case "\n":
                rows.append(String(row))
                row = []
                column = 0
            default:
                if column < row.count { row[column] = character } else { row.append(character) }
                column += 1
            }
        }
        if !row.isEmpty { rows.append(String(row)) }
        return rows.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    private func text(of stream: ConsoleStream) -> String {
        chunks.filter { $0.stream == stream }.map(\.text).joined()
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// An update as the engine would report it: each event with the time it arrives after the start,
/// then the result. Times are made up, so throttling and timings are checked exactly.
struct ScriptedRun {
    var steps: [(at: Duration, event: UpdateEvent)] = []
    var result: UpdateResult = .success(Fixture.newVersion)
    var finishAt: Duration = .zero

    /// Feeds every step and the result to `renderer`; returns what `finish` returned.
    func play<Renderer: EventRenderer>(into renderer: inout Renderer) -> ExitStatus {
        let start = ContinuousClock.now
        for step in steps { renderer.render(step.event, at: start + step.at) }
        return renderer.finish(result, at: start + finishAt)
    }

    mutating func add(_ event: UpdateEvent, at milliseconds: Int) {
        steps.append((.milliseconds(milliseconds), event))
        finishAt = .milliseconds(milliseconds)
    }

    /// Stage started, events, stage finished, with the stage's duration taken from the times.
    mutating func stage(_ stage: UpdateStage, from start: Int, to end: Int, _ events: [(Int, UpdateEvent)] = []) {
        add(.stageStarted(stage), at: start)
        for (time, event) in events { add(event, at: time) }
        add(.stageFinished(stage, duration: .milliseconds(end - start)), at: end)
    }

    /// Everything up to the start of the transfer: image checked, connected, state read, checks passed.
    static func upToTransfer(battery: Int = 80) -> ScriptedRun {
        var run = ScriptedRun()
        run.stage(.verifyImage, from: 0, to: 5, [(5, .imageChecked(Fixture.image))])
        run.stage(.connect, from: 5, to: 845, [(845, .connected(Fixture.connection))])
        run.stage(.readDeviceState, from: 845, to: 1055, [(1055, .deviceState(Fixture.facts(battery: battery)))])
        run.add(.stageStarted(.checkPreconditions), at: 1055)
        return run
    }

    /// The transfer: the first reply after a 1.2 s erase, then 1 KiB every 20 ms, up to `stopAt` bytes.
    mutating func transfer(from start: Int, stopAt: Int = Fixture.image.size) -> Int {
        add(.stageStarted(.transfer), at: start)
        var time = start + 1200
        var acknowledged = 1024
        while acknowledged <= stopAt {
            let elapsed = time - start
            let rate = Double(acknowledged) / (Double(elapsed - 1200 + 20) / 1000)
            add(.progress(TransferProgress(acknowledged: acknowledged, total: Fixture.image.size,
                                           elapsed: .milliseconds(elapsed), rate: rate)), at: time)
            acknowledged += 1024
            time += 20
        }
        return time - 20
    }

    /// A whole test-and-confirm update, as `dfu flash app.signed.bin --device sim` runs it.
    static var fullFlash: ScriptedRun {
        var run = upToTransfer()
        run.add(.preconditionsPassed(Fixture.passedVerdict), at: 1056)
        run.add(.stageFinished(.checkPreconditions, duration: .milliseconds(1)), at: 1056)
        let end = run.transfer(from: 1056)
        run.add(.stageFinished(.transfer, duration: .milliseconds(end - 1056)), at: end)
        run.stage(.activate, from: end, to: end + 44, [(end + 30, .activated(.testConfirm)), (end + 44, .rebooting)])
        run.stage(.reconnect, from: end + 44, to: end + 2094, [(end + 2094, .reconnected(Fixture.connection))])
        run.stage(.confirmVersion, from: end + 2094, to: end + 2204,
                  [(end + 2204, .versionConfirmed(version: Fixture.newVersion, confirmed: true))])
        run.result = .success(Fixture.newVersion)
        return run
    }

    /// The device's battery is too low: the run stops before the transfer with exit 4.
    static var preconditionFailure: ScriptedRun {
        var run = upToTransfer(battery: 15)
        run.result = .failure(.precondition([.batteryLow(level: 15, minimum: 30)]))
        return run
    }

    /// The link drops at 20 KiB of 48 and does not come back: exit 6.
    static var interruptedTransfer: ScriptedRun {
        var run = upToTransfer()
        run.add(.preconditionsPassed(Fixture.passedVerdict), at: 1056)
        run.add(.stageFinished(.checkPreconditions, duration: .milliseconds(1)), at: 1056)
        let end = run.transfer(from: 1056, stopAt: 20 * 1024)
        run.add(.warning("link lost at 20480 bytes; reconnecting"), at: end + 5)
        run.result = .failure(.transferInterrupted(
            "the link to the device was lost after 3 attempts to reconnect. Run the same command again to resume."))
        run.finishAt = .milliseconds(end + 5000)
        return run
    }

    /// The device comes back running its old image: exit 8.
    static var rollback: ScriptedRun {
        var run = fullFlash
        let reconnected = run.steps.lastIndex { if case .reconnected = $0.event { true } else { false } } ?? 0
        let time = run.steps[reconnected].at
        run.steps = Array(run.steps[...reconnected])
        run.add(.stageStarted(.confirmVersion), at: Int(time.seconds * 1000) + 5)
        run.result = .failure(.postRebootCheckFailed(
            "the device runs 1.0.0+0 after the reboot: it rolled back the new image 1.1.0+0. Check the image boots, then flash again."))
        return run
    }
}

/// The facts every scripted run uses.
enum Fixture {
    static let oldVersion = ImageVersion(major: 1, minor: 0, revision: 0)
    static let newVersion = ImageVersion(major: 1, minor: 1, revision: 0)

    static let image = ImageSummary(version: newVersion, size: 48 * 1024, sha256: Array(repeating: 0xAB, count: 32),
                                    signatureChecked: "ECDSA P-256")

    static let connection = ConnectionSummary(device: "…:EE:FF", identity: "AA:BB:CC:DD:EE:FF", attMTU: 498, maxWrite: 495,
                                              phy: "2M", connectionInterval: .microseconds(7500), window: 3, ceiling: 60_000)

    static func facts(battery: Int) -> DeviceFacts {
        DeviceFacts(runningVersion: oldVersion, runningHash: Array(repeating: 0x11, count: 32), batteryLevel: battery,
                    firmwareRevision: "1.0.0", slotSize: 224 * 1024, bufferSize: 2475, bufferCount: 4,
                    bootloaderMode: "swap-using-move")
    }

    /// A real verdict from the engine's own check (its memberwise init is not public).
    static var passedVerdict: Preconditions.Verdict {
        Preconditions.check(imageVersion: newVersion, imageSize: image.size, device: facts(battery: 80),
                            host: .mains, options: UpdateOptions())
    }

    static func terminal(isTerminal: Bool, verbose: Bool = false) -> TerminalRenderer<CapturedOutput> {
        TerminalRenderer(sink: CapturedOutput(), configuration: .init(
            imageName: "app.signed.bin", minimumBattery: 30, isTerminal: isTerminal, verbose: verbose))
    }

    static func json(verbose: Bool = false) -> NDJSONRenderer<CapturedOutput> {
        NDJSONRenderer(sink: CapturedOutput(), configuration: .init(command: "flash", verbose: verbose))
    }

    /// Each stdout line parsed on its own by Foundation; fails the test on a line that is not one
    /// JSON object.
    static func objects(_ output: CapturedOutput) throws -> [[String: Any]] {
        try output.stdoutLines.map { line in
            let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
            guard let object = value as? [String: Any] else { throw NotAnObject(line: line) }
            return object
        }
    }

    struct NotAnObject: Error { var line: String }
}
#endif
