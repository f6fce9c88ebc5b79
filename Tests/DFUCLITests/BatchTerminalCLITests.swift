import Foundation
import Testing

/// What `dfu batch` prints for people: one line per device, its result in a column wide enough
/// for every result, so the device names line up whatever happened.
@Suite(.endToEnd) struct BatchTerminalCLITests {
    /// One device done, one stopped mid-update by Ctrl-C, one never started: `INTERRUPTED` fits
    /// its column like `OK`.
    @Test func everyResultFitsItsColumn() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let image = BatchCLITests.root + "/" + FlashCLITests.image
        try """
            device,image
            "sim:id=t1,timescale=0",\(image)
            "sim:id=t2,timescale=1",\(image)
            "sim:id=t3,timescale=0",\(image)
            """.write(toFile: state + "/plan.csv", atomically: true, encoding: .utf8)
        let batch = try LiveDFUProcess(["batch", state + "/plan.csv", "--key", BatchCLITests.key],
                                       environment: ["XDG_STATE_HOME": state])
        while let line = batch.nextLine(timeout: 30), !line.hasPrefix("OK ") {}
        let ended = batch.stop(with: SIGINT)
        #expect(ended.exitCode == 130, "\(ended.stdoutLines) \(ended.stderr)")
        let devices = ended.stdoutLines.filter { $0.contains(" sim:id=t") }
        #expect(devices.map { $0.prefix { $0 != " " } } == ["OK", "INTERRUPTED", "INTERRUPTED"], "\(ended.stdoutLines)")
        let columns = devices.compactMap { line in
            line.range(of: "sim:id=t").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        }
        #expect(columns.count == 3 && Set(columns).count == 1, "the device names line up: \(devices)")
    }
}
