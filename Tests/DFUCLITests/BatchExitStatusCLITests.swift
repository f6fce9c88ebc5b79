import ExitCodes
import Foundation
import Testing

/// `dfu batch`'s one exit status: the most severe of the devices' codes in one documented order,
/// and 2 only when nothing was started. A `sim:` device's files are the plan's, like its image.
@Suite(.endToEnd) struct BatchExitStatusCLITests {
    /// A plan in a folder of its own with a key beside it: `key=keys/other.pub.pem` inside a
    /// `sim:` device is read from there, so that device's bootloader refuses the image at boot (8)
    /// while the other is updated; the batch ends 8, not 2.
    @Test func aSimKeyPathIsThePlansAndTheBatchEndsWithTheDevicesCode() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try FileManager.default.createDirectory(atPath: state + "/line/keys", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: BatchCLITests.otherKey, toPath: state + "/line/keys/other.pub.pem")
        let plan = state + "/line/plan.csv"
        try """
            device,image
            "sim:id=k1,timescale=0,key=keys/other.pub.pem",\(BatchCLITests.root)/\(FlashCLITests.image)
            "sim:id=k2,timescale=0",\(BatchCLITests.root)/\(FlashCLITests.image)
            """.write(toFile: plan, atomically: true, encoding: .utf8)
        let run = try DFURun.run(["batch", plan, "--key", BatchCLITests.key, "--json"], timeout: 60,
                                 environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 8, "\(run.output)")
        let devices = try run.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == "device" }
        #expect(devices.map { $0["exit_code"] as? Int } == [8, 0], "\(run.stdout)")
    }

    /// A `sim:` key file that is not there refuses the plan before any device runs.
    @Test func aMissingSimKeyRefusesThePlanBeforeAnyDeviceRuns() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let plan = state + "/plan.csv"
        try """
            device,image
            "sim:id=m1,timescale=0",\(BatchCLITests.root)/\(FlashCLITests.image)
            "sim:id=m2,timescale=0,key=keys/missing.pem",\(BatchCLITests.root)/\(FlashCLITests.image)
            """.write(toFile: plan, atomically: true, encoding: .utf8)
        let run = try DFURun.run(["batch", plan, "--key", BatchCLITests.key], timeout: 60,
                                 environment: ["XDG_STATE_HOME": state])
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("1 row cannot run, so none was started"), "\(run.stderr)")
        #expect(run.stderr.contains("line 3, column device: invalid device 'sim:id=m2,timescale=0,key=keys/missing.pem'")
                && run.stderr.contains(state + "/keys/missing.pem"), "\(run.stderr)")
        #expect(run.stdout.isEmpty && !FileManager.default.fileExists(atPath: state + "/dfu"), "nothing ran: \(run.stdout)")
    }

    /// `dfu batch --help` lists every code a batch can end with, once each, in the order the batch
    /// picks the most severe (`ExitStatus.severityOrder`).
    @Test func theHelpListsEveryCodeInTheOrderTheBatchUses() throws {
        let help = try DFURun.run(["batch", "--help"])
        let list = try #require(help.stdout.components(separatedBy: "Exit status:\n").last)
        let codes = list.split(separator: "\n").compactMap { line -> Int32? in
            let row = line.drop { $0 == " " }
            guard line.count - row.count <= 4 else { return nil }  // a continuation line
            return Int32(row.prefix { $0.isNumber })
        }
        #expect(codes == ExitStatus.severityOrder.map(\.rawValue), "\(list)")
        #expect(Set(codes) == Set(ExitStatus.allCases.map(\.rawValue)), "every code")
    }
}
