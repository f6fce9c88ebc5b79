import Foundation
import Testing

/// What `dfu flash` records and how its times add up, through the binary: the JSON names the
/// device in full (a record; the terminal shortens it), the `--verbose` stage timings add up to no
/// more than the run, and a virtual device's model time is labelled beside real time.
@Suite(.serialized, .endToEnd) struct FlashRecordsAndTimesCLITests {
    /// The terminal shows `…:89:39`; the JSON lines carry the whole identity, as `--full-addresses` shows it.
    @Test func jsonNamesTheDeviceInFull() throws {
        let json = try FlashCLITests.flash(["--json"])
        #expect(json.exitCode == 0, "\(json.output)")
        let devices = try json.stdoutLines.map(FlashCLITests.object)
            .filter { ["connected", "reconnected"].contains($0["event"] as? String) }.compactMap { $0["device"] as? String }
        let full = try FlashCLITests.flash(["--full-addresses"])
        let shown = try #require(full.stdoutLines.first { $0.hasPrefix("connected: ") }, "\(full.stdout)")
        let identity = try #require(devices.first, "\(json.stdout)")
        #expect(devices.count == 2 && devices.allSatisfy { $0 == identity }, "\(devices)")
        #expect(!identity.contains("…") && identity.split(separator: ":").count == 6, "\(identity)")
        #expect(shown.hasPrefix("connected: \(identity), "), "\(shown)")
    }

    /// Every row of the stage timings is its own stage, so with a device in real time (the default
    /// virtual device, whose reboot takes about 6 s) they add up to no more than the whole run.
    @Test func stageTimingsAddUpToNoMoreThanTheRun() throws {
        let run = try DFURun.run(["flash", FlashCLITests.image, "--device", "sim", "--key", FlashCLITests.key, "--verbose"],
                                 timeout: 60)
        #expect(run.exitCode == 0, "\(run.output)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let rows = lines.drop { $0 != "dfu: stage timings:" }.dropFirst().filter { $0.hasPrefix("dfu:   ") }
        let sum = rows.compactMap { Self.seconds(in: $0).first }.reduce(0, +)
        let took = try #require(run.stdoutLines.last.flatMap { Self.seconds(in: $0).last }, "\(run.stdout)")
        #expect(rows.count == 8 && sum <= took + 0.05, "\(rows) add up to \(sum) s; the run took \(took) s")
    }

    /// `timescale=0.1` runs the model ten times faster: its times are the model's and say so; the
    /// run's own length is real time.
    @Test func modelTimeIsLabelledBesideRealTime() throws {
        let run = try DFURun.run(["flash", FlashCLITests.image, "--device", "sim:timescale=0.1", "--key", FlashCLITests.key,
                                  "--verbose"], timeout: 60)
        #expect(run.exitCode == 0, "\(run.output)")
        let uploaded = try #require(run.stdoutLines.first { $0.hasPrefix("uploaded ") }, "\(run.stdout)")
        #expect(uploaded.contains(" s (model time): "), "\(uploaded)")
        #expect(run.stderr.contains("dfu: stage timings (model time, timescale 0.1):"), "\(run.stderr)")
        #expect(run.stdoutLines.last?.contains("(update took ") == true, "\(run.stdout)")
    }

    /// `0.84 s` → 0.84, for each duration in `text`.
    static func seconds(in text: String) -> [Double] {
        let words = text.split(separator: " ")
        return zip(words, words.dropFirst()).compactMap { number, unit in
            unit.hasPrefix("s") && (unit == "s" || unit == "s," || unit == "s)") ? Double(number) : nil
        }
    }
}
