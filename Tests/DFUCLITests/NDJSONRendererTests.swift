// These tests call the renderers and parsers of the `dfu` executable target in-process, which needs
// `"dfu"` among DFUCLITests' dependencies in Package.swift and the DFU_CLI_UNIT_TESTS condition
// (`swiftSettings: [.define("DFU_CLI_UNIT_TESTS")]`). Until both are there, this file compiles to
// nothing, so the binary-driven tests beside it keep building.
#if DFU_CLI_UNIT_TESTS
@testable import dfu
import DFUCore
import Foundation
import Testing

/// `dfu flash --json`: one JSON object per line, each parsed on its own by Foundation.
@Suite struct NDJSONRendererTests {
    @Test func everyLineOfEveryRunIsOneJSONObjectWithAnEvent() throws {
        for run in [ScriptedRun.fullFlash, .preconditionFailure, .interruptedTransfer, .rollback] {
            var renderer = Fixture.json(verbose: true)
            _ = run.play(into: &renderer)
            #expect(renderer.sink.stderr.isEmpty)
            #expect(renderer.sink.stdout.hasSuffix("\n"))
            let objects = try Fixture.objects(renderer.sink)
            #expect(objects.allSatisfy { $0["event"] is String })
            #expect(objects.last?["event"] as? String == "result")
            #expect(objects.filter { $0["event"] as? String == "result" }.count == 1)
        }
    }

    @Test func fullFlashReportsStagesFactsProgressAndASuccessfulResult() throws {
        var renderer = Fixture.json()
        #expect(ScriptedRun.fullFlash.play(into: &renderer) == .success)
        let lines = renderer.sink.stdoutLines
        #expect(lines.first == #"{"event":"stage","schema":2,"stage":"verify-image","status":"started"}"#)
        #expect(lines.contains(#"{"event":"stage","schema":2,"stage":"connect","status":"finished","duration":0.84}"#))
        #expect(lines.contains(#"{"event":"connected","schema":2,"device":"AA:BB:CC:DD:EE:FF","mtu":498,"max_write":495,"phy":"2M","interval_ms":7.5,"window":3,"ceiling":60000}"#))
        #expect(lines.contains(#"{"event":"stage","schema":2,"stage":"transfer","status":"started"}"#))
        #expect(lines.contains(#"{"event":"progress","schema":2,"bytes":1024,"total":49152,"rate":51200,"elapsed":1.2,"part":null,"resumed_from":0}"#))
        #expect(lines.contains(#"{"event":"activated","schema":2,"mode":"test-confirm"}"#))
        #expect(lines.contains(#"{"event":"rebooting","schema":2}"#))
        #expect(lines.contains(#"{"event":"version","schema":2,"version":"1.1.0+0","confirmed":true}"#))
        #expect(lines.last == #"{"event":"result","schema":2,"command":"flash","ok":true,"exit_code":0,"version":"1.1.0+0","error":null}"#)

        let objects = try Fixture.objects(renderer.sink)
        let image = try #require(objects.first { $0["event"] as? String == "image" })
        #expect(image["size"] as? Int == 49152)
        #expect(image["signature"] as? String == "ECDSA P-256")
        #expect((image["sha256"] as? String)?.count == 64)
        let device = try #require(objects.first { $0["event"] as? String == "device" })
        #expect(device["battery"] as? Int == 80)
        #expect(device["running_version"] as? String == "1.0.0+0")
        let progress = objects.filter { $0["event"] as? String == "progress" }
        #expect(progress.last?["bytes"] as? Int == 49152)
        #expect(progress.allSatisfy { $0["total"] as? Int == 49152 && $0["rate"] is NSNumber && $0["elapsed"] is NSNumber })
    }

    /// A fact the device did not report is `null`, never a missing key.
    @Test func unreportedFactsAreNull() throws {
        var renderer = Fixture.json()
        renderer.render(.deviceState(DeviceFacts()), at: .now)
        renderer.render(.connected(ConnectionSummary(device: "sim", attMTU: 23, maxWrite: 20, phy: nil,
                                                     connectionInterval: nil, window: 1, ceiling: nil)), at: .now)
        #expect(renderer.sink.stdoutLines == [
            #"{"event":"device","schema":2,"running_version":null,"running_sha256":null,"battery":null,"firmware_revision":null,"slot_size":null,"buf_size":null,"buf_count":null,"bootloader_mode":null}"#,
            #"{"event":"connected","schema":2,"device":"sim","mtu":23,"max_write":20,"phy":null,"interval_ms":null,"window":1,"ceiling":null}"#,
        ])
    }

    @Test func preconditionFailureResultHasExitFourAndListsEachFailedCheck() throws {
        var run = ScriptedRun.preconditionFailure
        run.result = .failure(.precondition([.batteryLow(level: 15, minimum: 30),
                                             .notNewer(image: Fixture.oldVersion, running: Fixture.oldVersion)]))
        var renderer = Fixture.json()
        #expect(run.play(into: &renderer) == .preconditionNotMet)
        let objects = try Fixture.objects(renderer.sink)
        #expect(!objects.contains { $0["event"] as? String == "progress" })
        let result = try #require(objects.last)
        #expect(result["ok"] as? Bool == false)
        #expect(result["exit_code"] as? Int == 4)
        #expect(result["version"] is NSNull)
        #expect((result["error"] as? String)?.hasPrefix("device battery is at 15 %") == true)
        let failures = try #require(result["failures"] as? [[String: Any]])
        #expect(failures.map { $0["check"] as? String } == ["battery", "version"])
    }

    @Test func rollbackResultHasExitEightAndNoVersion() throws {
        var renderer = Fixture.json()
        #expect(ScriptedRun.rollback.play(into: &renderer) == .postRebootCheckFailed)
        let objects = try Fixture.objects(renderer.sink)
        #expect(!objects.contains { $0["event"] as? String == "version" })
        let result = try #require(objects.last)
        #expect(result["exit_code"] as? Int == 8)
        #expect(result["version"] is NSNull)
        #expect(result["failures"] == nil)
    }

    /// 1000 progress events of 0.1 % each, 1 ms apart: one line per whole percent, the last included.
    @Test func fastProgressIsThinnedToOneLinePerPercent() throws {
        var renderer = Fixture.json()
        let start = ContinuousClock.now
        for step in 1...1000 {
            renderer.render(.progress(TransferProgress(acknowledged: step * 100, total: 100_000,
                                                       elapsed: .milliseconds(step), rate: 100_000)),
                            at: start + .milliseconds(step))
        }
        _ = renderer.finish(.success(Fixture.newVersion), at: start + .seconds(2))
        let progress = try Fixture.objects(renderer.sink).filter { $0["event"] as? String == "progress" }
        #expect(progress.count == 101, "first, then one per percent: \(progress.count)")
        #expect(progress.first?["bytes"] as? Int == 100)
        #expect(progress.last?["bytes"] as? Int == 100_000)
        let percents = progress.compactMap { $0["bytes"] as? Int }.map { $0 / 1000 }
        #expect(Set(percents).count == percents.count, "no percent twice")
    }

    /// A slow link (0.1 % a second): still a line at least every 250 ms of arrivals, i.e. each one.
    /// Arrivals 100 ms apart: every third is shown.
    @Test func slowProgressIsShownEveryQuarterSecond() throws {
        var renderer = Fixture.json()
        let start = ContinuousClock.now
        for step in 1...30 {
            renderer.render(.progress(TransferProgress(acknowledged: 10_000 + step * 10, total: 1_000_000,
                                                       elapsed: .milliseconds(step * 100), rate: 100)),
                            at: start + .milliseconds(step * 100))
        }
        let progress = try Fixture.objects(renderer.sink).filter { $0["event"] as? String == "progress" }
        let shownAt = progress.compactMap { $0["elapsed"] as? Double }
        #expect(shownAt.first == 0.1)
        #expect(zip(shownAt, shownAt.dropFirst()).allSatisfy { $1 - $0 >= 0.25 - 1e-9 })
        #expect(progress.count == 10)
    }

    /// The last progress before the link dropped was held back by the throttle; it is written
    /// before the next event, so a script knows exactly where the upload stopped.
    @Test func heldBackProgressIsWrittenBeforeTheNextEventAndTheResult() throws {
        var renderer = Fixture.json()
        let start = ContinuousClock.now
        renderer.render(.progress(TransferProgress(acknowledged: 10_000, total: 100_000, elapsed: .zero, rate: 1)),
                        at: start)
        renderer.render(.progress(TransferProgress(acknowledged: 10_500, total: 100_000, elapsed: .zero, rate: 1)),
                        at: start + .milliseconds(10))
        renderer.render(.warning("link lost"), at: start + .milliseconds(11))
        renderer.render(.progress(TransferProgress(acknowledged: 10_600, total: 100_000, elapsed: .zero, rate: 1)),
                        at: start + .milliseconds(20))
        _ = renderer.finish(.failure(.transferInterrupted("lost")), at: start + .milliseconds(30))
        let lines = renderer.sink.stdoutLines
        #expect(lines.count == 5)
        #expect(lines[0].contains(#""bytes":10000"#))
        #expect(lines[1].contains(#""bytes":10500"#))
        #expect(lines[2] == #"{"event":"warning","schema":2,"message":"link lost"}"#)
        #expect(lines[3].contains(#""bytes":10600"#))
        #expect(lines[4].hasPrefix(#"{"event":"result","schema":2,"command":"flash","ok":false,"exit_code":6,"version":null,"error":"lost""#))
    }

    @Test func interruptedTransferEndsWithTheLastAcknowledgedOffset() throws {
        var renderer = Fixture.json()
        #expect(ScriptedRun.interruptedTransfer.play(into: &renderer) == .transferInterrupted)
        let objects = try Fixture.objects(renderer.sink)
        let lastProgress = try #require(objects.last { $0["event"] as? String == "progress" })
        #expect(lastProgress["bytes"] as? Int == 20480)
        #expect(objects.last?["exit_code"] as? Int == 6)
    }

    @Test func logEventsAppearOnlyWithVerbose() throws {
        for verbose in [false, true] {
            var renderer = Fixture.json(verbose: verbose)
            renderer.render(.log("SMP seq 4 rc 0"), at: .now)
            _ = renderer.finish(.success(Fixture.newVersion), at: .now)
            let events = try Fixture.objects(renderer.sink).compactMap { $0["event"] as? String }
            #expect(events == (verbose ? ["log", "result"] : ["result"]))
        }
    }

    /// Quotes, newlines and control characters from a device survive as data, one line still.
    @Test func awkwardTextIsEscapedAndRoundTrips() throws {
        let message = "rsn \"slot busy\"\nline two\t\u{1B}[31m \u{2028} done"
        var renderer = Fixture.json()
        renderer.render(.warning(message), at: .now)
        #expect(renderer.sink.stdoutLines.count == 1)
        let object = try #require(try Fixture.objects(renderer.sink).first)
        #expect(object["message"] as? String == message)
    }

    /// Numbers JSON cannot hold become null instead of breaking the line.
    @Test func nonFiniteRatesAreNull() throws {
        var renderer = Fixture.json()
        renderer.render(.progress(TransferProgress(acknowledged: 0, total: 10, elapsed: .zero, rate: .nan)), at: .now)
        renderer.render(.progress(TransferProgress(acknowledged: 10, total: 10, elapsed: .zero, rate: .infinity)), at: .now)
        let objects = try Fixture.objects(renderer.sink)
        #expect(objects.count == 2)
        #expect(objects.allSatisfy { $0["rate"] is NSNull })
    }
}
#endif
