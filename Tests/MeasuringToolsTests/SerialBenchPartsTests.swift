@testable import dfu_bench
import Foundation
import Testing

/// The serial part's batch of ports and its smpmgr comparison, without running either: where
/// smpmgr is looked for, how its log is timed, how `dfu batch --json` lines become goodputs, and
/// the row a machine without smpmgr gets.
@Suite struct SerialBenchPartsTests {
    @Test func smpmgrIsLookedForInTheGivenPathThenTheEnvironmentThenPATHThenTheVirtualEnvironments() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpmgr-find-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tool = folder.appendingPathComponent("smpmgr").path
        #expect(FileManager.default.createFile(atPath: tool, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))

        #expect(SmpmgrLocation.find(given: "/opt/smpmgr", environment: ["SMPMGR": "/x"]) == "/opt/smpmgr")
        #expect(SmpmgrLocation.find(given: nil, environment: ["SMPMGR": "/x", "PATH": folder.path]) == "/x")
        #expect(SmpmgrLocation.find(given: nil, environment: ["PATH": "/nonexistent:" + folder.path], virtualEnvironments: []) == tool)
        #expect(SmpmgrLocation.find(given: nil, environment: ["PATH": "/nonexistent"], virtualEnvironments: [tool]) == tool)
        #expect(SmpmgrLocation.find(given: nil, environment: ["PATH": "/nonexistent"], virtualEnvironments: ["/nonexistent/smpmgr"]) == nil)
    }

    @Test func withoutSmpmgrTheRowSaysItIsNotInstalled() {
        let row = SerialTableReport.render(.notInstalled, dfu: [])
        #expect(row.hasPrefix("  smpmgr: not installed (looked at $SMPMGR, PATH, "))
    }

    @Test func smpmgrsUploadIsTimedFromItsParametersReplyToUploadComplete() {
        let log = """
            2026-12-06 08:45:08,766 - INFO - …/smpmgr/logging.py:96 - Log file /tmp/x.log log level: DEBUG
            2026-12-06 08:45:08,790 - DEBUG - …/smpclient/__init__.py:563 - MCUMgr parameters: header=… buf_size=2475 buf_count=4
            2026-12-06 08:45:09,100 - DEBUG - …/smpclient/__init__.py:300 - sent 169 bytes
            2026-12-06 08:45:11,405 - INFO - …/smpclient/__init__.py:350 - Upload complete
            """
        let seconds = SmpmgrRun.uploadSeconds(log: log)
        #expect(seconds.map { abs($0 - 2.615) < 0.0005 } == true, "\(String(describing: seconds))")
        #expect(SmpmgrRun.uploadSeconds(log: "2026-12-06 08:45:11,405 - INFO - x - Upload complete") == nil)
    }

    @Test func theBatchsDeviceLinesGiveEachDevicesGoodputAndTheAggregateAgainstEveryLine() {
        let lines = (2 ... 9).map { line in
            #"{"event":"device","schema":1,"line":\#(line),"result":"ok","duration":6.0,"bytes":49800,"error":null}"#
        } + [#"{"event":"result","schema":1,"command":"batch","devices":8,"succeeded":8,"failed":0}"#]
        let batch = SerialBatchMeasurement(devices: 8, baud: 115_200, image: "a.bin", imageBytes: 49800, ceiling: 8400,
                                           exitStatus: 0, wallSeconds: 6.4, output: lines.joined(separator: "\n"), errors: "")
        #expect(batch.passed)
        #expect(batch.succeeded == 8)
        #expect(batch.perDevice.map(\.line) == Array(2 ... 9))
        #expect(abs(batch.medianGoodput - 8300) < 0.001)
        #expect(abs(batch.aggregateGoodput - 8 * 49800 / 6.4) < 0.001)
        #expect(abs(batch.ratio - 8 * 49800 / 6.4 / (8 * 8400)) < 0.000_001)
        #expect(batch.problem == nil)
    }

    @Test func aFailedOrMissingDeviceFailsTheBatchAndSaysWhy() {
        let output = [
            #"{"event":"device","schema":1,"line":2,"result":"ok","duration":6.0,"bytes":49800,"error":null}"#,
            #"{"event":"device","schema":1,"line":3,"result":"failed","duration":1.0,"bytes":0,"error":"port busy"}"#,
        ].joined(separator: "\n")
        let batch = SerialBatchMeasurement(devices: 8, baud: 115_200, image: "a.bin", imageBytes: 49800, ceiling: 8400,
                                           exitStatus: 5, wallSeconds: 6.4, output: output, errors: "")
        #expect(!batch.passed)
        #expect(batch.succeeded == 1)
        #expect(batch.problem == "port busy")
    }
}
