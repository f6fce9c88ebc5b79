import Foundation
import Testing

/// `--dry-run` on `flash` and `batch`: every check, the real run's exit status up to the transfer,
/// and not one byte of the image on the device (its own record, read back with `dfu info`).
@Suite(.endToEnd) struct DryRunCLITests {
    @Test func aDryRunLeavesTheDeviceAsItWasAndKeepsNoJournal() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        let device = "udp:127.0.0.1:\(try #require(sim.ready()).port)"
        let run = try DFURun.run(["flash", FlashCLITests.image, "--device", device, "--key", FlashCLITests.key, "--dry-run"],
                                 timeout: 60, environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last == "dry run OK: every check passed; \(device) would get 49.8 kB (1.1.0+0), "
                + "then test-confirm. Nothing was sent.", "\(run.stdout)")
        #expect(!run.stdout.contains("uploading"))
        let info = try DFURun.run(["info", "--device", device], timeout: 30)
        #expect(info.stdout.contains("slot 0             1.0.0+0: running, confirmed"), "\(info.stdout)")
        #expect(info.stdout.contains("slot 1             empty"), "the device holds nothing new: \(info.stdout)")
        #expect(!FileManager.default.fileExists(atPath: state + "/dfu"), "a dry run is no update to resume")

        let json = try DFURun.run(["flash", FlashCLITests.image, "--device", device, "--key", FlashCLITests.key,
                                   "--dry-run", "--json"], timeout: 60, environment: ["XDG_STATE_HOME": state])
        let lines = try json.stdoutLines.map(FlashCLITests.object)
        let verdict = try #require(lines.first { $0["event"] as? String == "dry-run" })
        #expect(verdict["plan"] as? String == "upload" && verdict["bytes"] as? Int == 49816 && verdict["mode"] as? String == "test-confirm")
        #expect(lines.last?["dry_run"] as? Bool == true && lines.last?["exit_code"] as? Int == 0)
        #expect(sim.stop().exitCode == 0)
    }

    @Test func aBatchDryRunChecksEveryDeviceAndFailsWhereTheRealRunWould() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let image = DFUBinary.repositoryRoot.path + "/" + FlashCLITests.image
        try """
            device,image
            "sim:id=d1,timescale=0",\(image)
            "sim:id=d2,timescale=0,battery=9",\(image)
            "sim:id=d3,timescale=0",\(image)
            """.write(toFile: state + "/plan.csv", atomically: true, encoding: .utf8)
        let run = try DFURun.run(["batch", state + "/plan.csv", "--key", BatchCLITests.key, "--dry-run", "--parallel", "3",
                                  "--json"], timeout: 60, environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 4, "the low battery, as the real run: \(run.output)")
        let devices = try run.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == "device" }
        let results = Dictionary(uniqueKeysWithValues: devices.compactMap { object in
            (object["device"] as? String).map { ($0, object["result"] as? String ?? "") }
        })
        #expect(results == ["sim:id=d1,timescale=0": "checked", "sim:id=d2,timescale=0,battery=9": "failed",
                            "sim:id=d3,timescale=0": "checked"], "\(run.stdout)")
        #expect(devices.allSatisfy { $0["bytes"] as? Int == 0 })
        #expect(!FileManager.default.fileExists(atPath: state + "/dfu"), "no journal")
    }
}
